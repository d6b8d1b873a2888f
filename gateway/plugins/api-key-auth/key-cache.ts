// API-key records kept in this process for a few seconds, so that authenticating a request
// costs a map lookup and a comparison instead of a database round trip. What is kept is the
// record (public id, digest, account, limit, revoked) and, once a request proved the key by its
// digest, that key, in memory only and for the record's lifetime (checkApiKey); every request
// still proves it holds the key, in constant time. Unknown public ids are remembered too, so a
// client retrying a wrong key does not reach the database each time; they have a cache of their
// own, so that ids nobody holds, however many, cannot push out the records of keys in use. The price is that a
// revocation, or a key's new limit, takes effect within `ttlSeconds` on a gateway that saw the
// key recently; the README documents it. Concurrent requests for one id share one lookup.
// While the database cannot answer (prisma/unavailable.ts), a record read up to `staleSeconds`
// ago is used rather than failing every request of a known key: a revocation made meanwhile
// applies once the database answers again. An id with no record to fall back on fails with the
// database's error (503): it cannot be verified, which is not the same as invalid (401).
import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord } from '../../../prisma/accounts/api-keys.ts';
import { databaseUnavailability } from '../../../prisma/unavailable.ts';

export interface KeyCacheOptions {
  /** How long a record is trusted; 0 looks every request up. */
  ttlSeconds: number;
  /** While the database cannot answer, records read up to this many seconds ago are used. @default 0 */
  staleSeconds?: number;
  /** Most public ids remembered, known and unknown each. @default 10000 */
  maxEntries?: number;
  lookup(publicId: string): Promise<ApiKeyRecord | null>;
  /** Told whenever a record past ttlSeconds is used because the database could not answer. */
  onStale?: () => void;
}

/** lru-cache keeps no null values, so absence is wrapped. */
interface Entry {
  record: ApiKeyRecord | null;
  /** Date.now() when the record was read from the database. */
  readAt: number;
}

export class KeyCache {
  private readonly entries?: LRUCache<string, Entry>;
  /** Public ids the database has no record of. */
  private readonly unknownIds?: LRUCache<string, true>;
  private readonly lookup: (publicId: string) => Promise<ApiKeyRecord | null>;
  private readonly staleMs: number;
  private readonly onStale: () => void;

  constructor({ ttlSeconds, staleSeconds = 0, maxEntries = 10_000, lookup, onStale = () => {} }: KeyCacheOptions) {
    this.lookup = lookup;
    this.staleMs = staleSeconds * 1000;
    this.onStale = onStale;
    if (ttlSeconds <= 0) return;
    this.unknownIds = new LRUCache<string, true>({ max: maxEntries, ttl: ttlSeconds * 1000 });
    this.entries = new LRUCache<string, Entry>({
      max: maxEntries,
      ttl: ttlSeconds * 1000,
      ttlAutopurge: false,
      // Records past their time stay (until evicted or read again) as the fallback of an outage.
      noDeleteOnStaleGet: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: async (publicId) => ({ record: await lookup(publicId), readAt: Date.now() }),
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
    if (this.unknownIds!.has(publicId)) return null;
    const status: LRUCache.Status<string, Entry> = {};
    return this.entries.fetch(publicId, { status }).then(
      (fetched) => {
        const record = fetched?.record ?? null;
        if (record === null) {
          this.entries!.delete(publicId);
          this.unknownIds!.set(publicId, true);
        }
        return record;
      },
      // forget() during the lookup (a revocation, which reaches a gateway twice: from its own
      // portal, then from Redis) abandons it, as it may have read the key before the
      // revocation: the request waits for a lookup made after it instead of failing.
      (error: unknown) => (status.fetchAborted ? this.record(publicId) : this.lastKnown(publicId, error)),
    );
  }

  /** Forgets what is known of `publicId` (its key was revoked here): the next request looks it up. */
  forget(publicId: string): void {
    this.entries?.delete(publicId);
    this.unknownIds?.delete(publicId);
  }

  /** The record as last read, when the lookup failed because the database could not answer. */
  private lastKnown(publicId: string, error: unknown): ApiKeyRecord | null {
    const entry = databaseUnavailability(error) ? this.entries?.get(publicId, { allowStale: true }) : undefined;
    if (!entry || Date.now() - entry.readAt > this.staleMs) throw error;
    this.onStale();
    return entry.record;
  }
}
