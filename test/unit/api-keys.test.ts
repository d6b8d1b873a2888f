// Proving a key: by digest the first time a cached record sees it, then by a constant-time
// comparison with the proven key, which lives only as long as the record is cached.
import { describe, expect, it } from 'vitest';
import { checkApiKey, createKeyToucher, digestKey, type ApiKeyRecord } from '../../prisma/accounts/api-keys.ts';
import type { PrismaClient } from '../../prisma/generated/client.ts';
import { KeyCache } from '../../gateway/plugins/api-key-auth/key-cache.ts';

const KEY = `ick_abcdefghij_${'A'.repeat(31)}B`;
const recordOf = (key: string, revoked = false): ApiKeyRecord => ({
  key: { keyId: 1, publicId: 'abcdefghij', accountId: 7, hourlyLimit: null },
  secretDigest: Buffer.from(digestKey(key), 'hex'),
  revoked,
});

describe('checkApiKey', () => {
  it('proves a key by digest once, then by comparison with the proven key; wrong secrets fail either way', () => {
    const record = recordOf(KEY);
    const wrong = `${KEY.slice(0, -1)}C`;
    expect(checkApiKey(record, wrong)).toBeUndefined();
    expect(record.proven).toBeUndefined(); // a wrong secret proves nothing
    expect(checkApiKey(record, KEY)).toBe(record.key);
    expect(record.proven?.toString('latin1')).toBe(KEY);
    expect(checkApiKey(record, KEY)).toBe(record.key);
    expect(checkApiKey(record, wrong)).toBeUndefined();
    expect(checkApiKey(record, KEY.slice(0, -1))).toBeUndefined();
  });

  it('refuses a revoked key and an unknown id whatever is presented', () => {
    const revoked = recordOf(KEY, true);
    expect(checkApiKey(revoked, KEY)).toBeUndefined();
    expect(revoked.proven).toBeUndefined();
    expect(checkApiKey(null, KEY)).toBeUndefined();
  });
});

describe('KeyCache', () => {
  it('zeroes and forgets the proven key when a record leaves the cache', async () => {
    const cache = new KeyCache({ ttlSeconds: 0.05, lookup: async () => recordOf(KEY) });
    const first = (await cache.record('abcdefghij'))!;
    expect(checkApiKey(first, KEY)).toBeDefined();
    const proven = first.proven!;
    expect(cache.record('abcdefghij')).toBe(first); // from memory, synchronously
    await new Promise((wait) => setTimeout(wait, 80));
    const second = await cache.record('abcdefghij');
    expect(second).not.toBe(first);
    expect(first.proven).toBeUndefined();
    expect(proven.every((byte) => byte === 0)).toBe(true);
    expect(checkApiKey(first, KEY)).toBe(first.key); // a request still holding it checks by digest
  });

  it('remembers unknown ids apart, so that any number of them cannot push out a key in use', async () => {
    const lookups: string[] = [];
    const cache = new KeyCache({
      ttlSeconds: 60,
      maxEntries: 3,
      lookup: async (publicId) => {
        lookups.push(publicId);
        return publicId === 'abcdefghij' ? recordOf(KEY) : null;
      },
    });
    const known = await cache.record('abcdefghij');
    for (let i = 0; i < 20; i++) expect(await cache.record(`unknown${String(i).padStart(3, '0')}`)).toBeNull();
    expect(cache.record('abcdefghij')).toBe(known); // still from memory, synchronously
    expect(cache.record('unknown019')).toBeNull(); // the most recent unknown ids are remembered too
    expect(lookups.length).toBe(21);
  });

  it('answers a request whose lookup was under way when its key was revoked with the record read after the revocation', async () => {
    // A revocation reaches a gateway twice (its own portal, then its own Redis message), so a
    // request may be looking the key up when the second one arrives.
    let revoked = false;
    const lookups: Array<() => void> = [];
    const cache = new KeyCache({
      ttlSeconds: 60,
      lookup: (publicId) =>
        new Promise((resolve) => lookups.push(() => resolve(publicId === 'abcdefghij' ? recordOf(KEY, revoked) : null))),
    });
    const pending = cache.record('abcdefghij');
    revoked = true;
    cache.forget('abcdefghij');
    lookups.shift()!(); // the lookup that began before the revocation comes back
    await new Promise((wait) => setImmediate(wait));
    expect(lookups.length).toBe(1); // and a new one was made
    lookups.shift()!();
    const record = await pending;
    expect(record?.revoked).toBe(true);
    expect(checkApiKey(record, KEY)).toBeUndefined();
    expect(cache.record('abcdefghij')).toBe(record); // kept like any other record
  });
});

describe('createKeyToucher', () => {
  it('writes last_used_at at most once a minute per key, and reports the first of a run of failed writes and the recovery, once each', async () => {
    const writes: number[] = [];
    let refuse = true;
    // The database as the toucher uses it: one update, refused as a read replica refuses writes.
    const database = {
      apiKey: {
        update: async ({ data }: { data: { lastUsedAt: Date } }) => {
          if (refuse) throw new Error('prisma.apiKey.update()\ncannot execute UPDATE in a read-only transaction');
          writes.push(data.lastUsedAt.getTime());
        },
      },
    } as unknown as PrismaClient;
    const warned: { msg: string; error?: string }[] = [];
    const touch = createKeyToucher(async () => database, (entry) => warned.push(entry));
    const key = recordOf(KEY).key;
    const other = { ...key, keyId: 2 };
    await touch(key, 0);
    await touch(key, 30_000); // within the minute: not written, not tried
    await touch(other, 30_000);
    await touch(key, 60_000);
    expect(warned).toEqual([{ msg: expect.stringMatching(/last_used_at could not be written/), error: 'cannot execute UPDATE in a read-only transaction' }]);
    refuse = false;
    await touch(key, 120_000);
    await touch(other, 120_000);
    expect(writes).toEqual([120_000, 120_000]);
    expect(warned.map(({ msg }) => msg)).toEqual([expect.stringMatching(/could not be written/), expect.stringMatching(/written again/)]);
  });
});
