// What the resolvers need from whoever runs them (the gateway, a test, a script): the
// database and the caller's account. Resolvers never see HTTP.
import type { PrismaClient } from '../prisma/generated/client.ts';
import type { UrlSigner } from '../lib/url-signing.ts';
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
  /** Signed file addresses (for premium icons' owners); without it, none are given or accepted. */
  signedUrls?: { signer: UrlSigner; seconds: number };
  /**
   * The caller's standing against its rate limit, as counted for this request (by the gateway's
   * rate limiter: no second count); absent when nothing counted it.
   */
  rateLimit?: RateLimitStanding | null;
}

export interface RateLimitStanding {
  limit: number;
  remaining: number;
  /** Unix seconds. */
  resetAt: number;
  /** Requests counted in the window, this one included. */
  count: number;
}
