// What the resolvers need from whoever runs them (the gateway, a test, a script): the
// database and the caller's account. Resolvers never see HTTP.
import type { PrismaClient } from '../prisma/generated/client.ts';
import type { UrlSigner } from '../lib/url-signing.ts';
import type { UrlTemplates } from './urls.ts';

export interface Viewer {
  accountId: number;
}

export interface CatalogueContext {
  prisma: PrismaClient;
  /** The caller's account; null for anonymous access. */
  viewer: Viewer | null;
  urls: UrlTemplates;
  /** Signed file addresses (for premium icons' owners); without it, none are given or accepted. */
  signedUrls?: { signer: UrlSigner; seconds: number };
}
