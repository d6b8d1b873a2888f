// API-key records kept in this process for a few seconds, so that authenticating a request
// costs a map lookup and a comparison instead of a database round trip. What is kept is the
// record (public id, digest, account, limit, revoked) and, once a request proved the key by its
// digest, that key, in memory only and for the record's lifetime (checkApiKey); every request
// still proves it holds the key, in constant time. Unknown public ids are remembered too, so a
// client retrying a wrong key does not reach the database each time. The price is that a
// revocation, or a key's new limit, takes effect within `ttlSeconds` on a gateway that saw the
// key recently; the README documents it. Concurrent requests for one id share one lookup.
import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord } from '../../../prisma/accounts/api-keys.ts';

export interface KeyCacheOptions {
  /** How long a record is trusted; 0 looks every request up. */
  ttlSeconds: number;
  /** Most public ids remembered (known or not). @default 10000 */
  maxEntries?: number;
  lookup(publicId: string): Promise<ApiKeyRecord | null>;
}

/** lru-cache keeps no null values, so absence is wrapped. */
interface Entry {
  record: ApiKeyRecord | null;
}

export class KeyCache {
  private readonly entries?: LRUCache<string, Entry>;
  private readonly lookup: (publicId: string) => Promise<ApiKeyRecord | null>;

  constructor({ ttlSeconds, maxEntries = 10_000, lookup }: KeyCacheOptions) {
    this.lookup = lookup;
    if (ttlSeconds <= 0) return;
    this.entries = new LRUCache<string, Entry>({
      max: maxEntries,
      ttl: ttlSeconds * 1000,
      ttlAutopurge: false,
      fetchMethod: async (publicId) => ({ record: await lookup(publicId) }),
      // A record leaving the cache takes the key a request proved against it along (zeroed):
      // a request still holding the record then checks by digest.
      dispose: ({ record }) => {
        record?.proven?.fill(0);
        if (record) record.proven = undefined;
      },
    });
  }

  /**
   * The record of `publicId`: synchronously from memory when it was looked up less than
   * ttlSeconds ago (the hot path pays no promise), else a promise of the lookup.
   */
  record(publicId: string): ApiKeyRecord | null | Promise<ApiKeyRecord | null> {
    if (!this.entries) return this.lookup(publicId);
    const cached = this.entries.get(publicId);
    if (cached) return cached.record;
    return this.entries.fetch(publicId).then((fetched) => fetched?.record ?? null);
  }
}
