// What the resolvers need from whoever runs them (the gateway, a test, a script): the
// database and the caller's account. Resolvers never see HTTP.
import type { PrismaClient } from '../prisma/generated/client.ts';
import type { Reads } from '../prisma/reads.ts';
import type { UrlTemplates } from './urls.ts';

export interface Viewer {
  accountId: number;
}

export interface CatalogueContext {
  prisma: PrismaClient;
  /** Hot reads on the driver (prisma/reads.ts): prepared statements behind the same guard. */
  reads: Reads;
  /** The caller's account; null for anonymous access. */
  viewer: Viewer | null;
  urls: UrlTemplates;
}
