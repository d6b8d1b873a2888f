// Finished REST responses, kept for a few seconds so that a popular request costs a lookup
// instead of a database round trip. The catalogue only changes when an operator imports or
// grants, so a short time-to-live is the whole invalidation: a change shows within it.
// Keys hold the route, its variables and the caller's entitlement: responses that depend on
// who asks (a single icon: premium markup for owners only) are kept per account, so no
// account is ever served another's. Expired responses stay until evicted or replaced: while the
// database cannot answer, one that expired recently is better than a 503 (getStale).
import { LRUCache } from 'lru-cache';
import { ownedBytes } from '../../../lib/owned-bytes.ts';
import type { PagePosition } from './link-header.ts';

export interface CachedResponse {
  /** UTF-8 bytes of the JSON body. */
  body: Buffer;
  etag: string;
  /** Where a page stands, for its Link header (made per request: it keeps the request's own query). */
  position?: PagePosition;
}

export interface ResponseCacheOptions {
  /** Most bytes of bodies kept. */
  maxBytes: number;
}

export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse>;

  constructor({ maxBytes }: ResponseCacheOptions) {
    this.entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      sizeCalculation: (value, key) => value.body.byteLength + key.length + 64,
      ttlAutopurge: false,
      noDeleteOnStaleGet: true,
    });
  }

  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /** The response kept under `key` even if it expired, as long as that was at most `maxStaleMs` ago. */
  getStale(key: string, maxStaleMs: number): CachedResponse | undefined {
    if (-this.entries.getRemainingTTL(key) > maxStaleMs) return undefined;
    return this.entries.get(key, { allowStale: true });
  }

  /** Keeps `value` for `seconds`, its body in memory of its own (ownedBytes: a slice of a shared block would hold the block). */
  set(key: string, value: CachedResponse, seconds: number): void {
    if (seconds > 0) this.entries.set(key, { ...value, body: ownedBytes(value.body) }, { ttl: seconds * 1000 });
  }
}

/** The cache key of a route's response: route, variables in a fixed order, and scope. */
export function cacheKey(routePath: string, variables: Record<string, unknown>, scope: string): string {
  const ordered = Object.keys(variables)
    .sort()
    .map((name) => [name, variables[name]]);
  return `${routePath}\u0000${JSON.stringify(ordered)}\u0000${scope}`;
}
