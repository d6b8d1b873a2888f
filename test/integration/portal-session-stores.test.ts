// The portal's two session stores, PostgreSQL and the real Redis, held to the same assertions:
// create, find by the cookie's token (never by the digest), rotate (the old one ends), the OpenID
// Connect flow kept and ended, revoke one, revoke all of an account ("End all sessions"), expiry,
// and a disabled account's session not found.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSessions, redisSessions, type SessionStore } from '../../gateway/plugins/account-portal/session-store.ts';
import { ResourcePool } from '../../gateway/shared-resources.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';
import { pollUntil } from '../helpers/wait.ts';

const noRedis = await redisUnavailable();
const HOUR = 3_600_000;

let database: TestDatabase;
let lease: ReturnType<ResourcePool['lease']>;
const prefix = `icon-catalogue-test:portal:${randomBytes(4).toString('hex')}:`;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  lease = new ResourcePool().lease();
});
afterAll(async () => {
  await lease?.release();
  if (!noRedis) {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  await database?.drop();
});

const stores: [string, () => SessionStore, boolean][] = [
  ['postgres', () => postgresSessions(async () => database.db.prisma), false],
  ['redis', () => redisSessions(async () => database.db.prisma, { env: { REDIS_URL }, keep: lease.keep }, 'account-portal', prefix), !!noRedis],
];

describe.each(stores)('portal sessions in %s', (kind, makeStore, skip) => {
  const account = async (name: string) => (await database.db.prisma.account.create({ data: { name: `${kind}-${name}` } })).id;

  it.skipIf(skip)('finds a session by its token only, rotates, and keeps an OpenID Connect flow once', async () => {
    const store = makeStore();
    const anonymous = await store.create(null, HOUR);
    expect(anonymous.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await store.find(anonymous.token))?.csrfToken).toBe(anonymous.session.csrfToken);
    expect(await store.find(anonymous.session.id)).toBeNull(); // the stored digest is not a token
    await store.setFlow(anonymous.session.id, '{"state":"s"}');
    expect((await store.find(anonymous.token))?.oidcFlow).toBe('{"state":"s"}');
    await store.setFlow(anonymous.session.id, null);
    expect((await store.find(anonymous.token))?.oidcFlow).toBeNull();

    // Sign-in: the session before it ends, a new one holds the account.
    const id = await account('rotated');
    await store.delete(anonymous.session.id);
    const signedIn = await store.create(id, HOUR);
    expect(await store.find(anonymous.token)).toBeNull();
    const found = await store.find(signedIn.token);
    expect(found?.account?.id).toBe(id);
    expect(found?.csrfToken).not.toBe(anonymous.session.csrfToken);
  });

  it.skipIf(skip)('signs out one session, or every session of an account, and no other account’s', async () => {
    const store = makeStore();
    const [ada, bob] = [await account('ada'), await account('bob')];
    const [laptop, phone, tablet, other] = [await store.create(ada, HOUR), await store.create(ada, HOUR), await store.create(ada, HOUR), await store.create(bob, HOUR)];
    await store.delete(laptop.session.id);
    expect(await store.find(laptop.token)).toBeNull();
    expect(await store.find(phone.token)).not.toBeNull();
    await store.deleteAccount(ada);
    expect(await store.find(phone.token)).toBeNull();
    expect(await store.find(tablet.token)).toBeNull();
    expect((await store.find(other.token))?.account?.id).toBe(bob);
  });

  it.skipIf(skip)('ends a session when its time is up', async () => {
    const store = makeStore();
    const short = await store.create(await account('short'), 200);
    const long = await store.create(await account('long'), HOUR);
    const found = await pollUntil(() => store.find(short.token), (session) => session === null);
    expect(found).toBeNull();
    expect(await store.find(long.token)).not.toBeNull();
  });

  it.skipIf(skip)('does not find the session of a disabled account', async () => {
    const store = makeStore();
    const id = await account('disabled');
    const { token } = await store.create(id, HOUR);
    await database.db.prisma.account.update({ where: { id }, data: { disabledAt: new Date() } });
    expect(await store.find(token)).toBeNull();
  });
});

describe('sessions.store: redis', () => {
  it('needs REDIS_URL, and says so naming the option', () => {
    expect(() => redisSessions(async () => database.db.prisma, { env: {}, keep: lease.keep }, 'account-portal')).toThrow(
      'account-portal.sessions.store is "redis" but REDIS_URL is not set',
    );
  });
});
