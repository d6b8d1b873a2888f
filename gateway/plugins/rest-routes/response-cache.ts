// Finished REST responses, kept for a few seconds so that a popular request costs a lookup
// instead of a database round trip. The catalogue only changes when an operator imports or
// grants, so a short time-to-live is the whole invalidation: a change shows within it.
// Keys hold the route, its variables and the caller's entitlement: responses that depend on
// who asks (a single icon: premium markup for owners only) are kept per account, so no
// account is ever served another's. Expired responses stay until evicted or replaced: while the
// database cannot answer, one that expired recently is better than a 503 (getStale).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { stableJson } from '../../shared-resources.ts';
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
  /** How many gateways serve each route version (routeKey) from this cache: kept across a config reload. */
  private readonly routeHolders = new Map<string, number>();

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

  /**
   * Says that a gateway serves these route versions (routeKey) from the cache; the function it
   * returns says it no longer does, and drops the responses of those no gateway serves any more:
   * after a config reload, a route whose config or operation changed starts empty, the others
   * keep what they have.
   */
  holdRoutes(routeKeys: readonly string[]): () => void {
    for (const key of routeKeys) this.routeHolders.set(key, (this.routeHolders.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const gone = new Set<string>();
      for (const key of routeKeys) {
        const left = (this.routeHolders.get(key) ?? 1) - 1;
        if (left > 0) this.routeHolders.set(key, left);
        else {
          this.routeHolders.delete(key);
          gone.add(key);
        }
      }
      if (gone.size === 0) return;
      for (const key of [...this.entries.keys()]) if (gone.has(key.slice(0, key.indexOf('\u0000')))) this.entries.delete(key);
    };
  }

  /** How many responses are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Keeps `value` for `seconds`, its body in memory of its own (ownedBytes: a slice of a shared block would hold the block). */
  set(key: string, value: CachedResponse, seconds: number): void {
    if (seconds > 0) this.entries.set(key, { ...value, body: ownedBytes(value.body) }, { ttl: seconds * 1000 });
  }
}

/**
 * A route version's part of its cache keys: its path and a digest of its config and operation,
 * so that responses of a route as it was before a config reload are never served for it as it is.
 */
export function routeKey(routePath: string, version: unknown): string {
  return `${routePath}\u0001${createHash('sha256').update(stableJson(version)).digest('base64url').slice(0, 16)}`;
}

/** The cache key of a route's response: route version (routeKey), variables in a fixed order, and scope. */
export function cacheKey(route: string, variables: Record<string, unknown>, scope: string): string {
  const ordered = Object.keys(variables)
    .sort()
    .map((name) => [name, variables[name]]);
  return `${route}\u0000${JSON.stringify(ordered)}\u0000${scope}`;
}
