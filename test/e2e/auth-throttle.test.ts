// Failed authentication throttled per client address (issue 11, item 3), over real sockets:
// gateways in this process on PGlite, whose key lookups are counted, with memory stores, and two
// gateways sharing one Redis. Addresses come from X-Forwarded-For only where `trustedProxies`
// says a proxy stands in front; each test uses addresses of its own.
import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../gateway/pipeline/address-key.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';

const memoryEnv = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
let database: TestDatabase;
let keyLookups = 0;
let direct: RunningGateway; // trustedProxies: 0, as configured
let proxied: RunningGateway; // trustedProxies: 1
let validKey: string;

const behindOneProxy = (config: string) => {
  const edited = config.replace('trustedProxies: 0', 'trustedProxies: 1');
  expect(edited).not.toBe(config);
  return edited;
};

beforeAll(async () => {
  database = await createCatalogueCopy('pglite', { onQuery: (sql) => void (/\bFROM "public"\."api_keys"/.test(sql) && keyLookups++) });
  validKey = (await createApiKey(database.db.prisma, { accountName: 'throttle' })).key;
  direct = await startGatewayInProcess(database.db, { env: memoryEnv });
  proxied = await withConfig(behindOneProxy, (dir) => startGatewayInProcess(database.db, { dir, env: memoryEnv }));
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
  await database?.drop();
});

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A well-formed key nobody was given: its public id is unknown to the database. */
function unknownKey(): string {
  const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `ick_${pick(ALNUM, 10)}_${pick(`${ALNUM}ABCDEFGHIJKLMNOPQRSTUVWXYZ`, 32)}`;
}
/**
 * An address of its own for each call (the documentation ranges): consecutive from a random
 * start, so no two calls of a run share one. Drawn at random from 254 each time, the "other
 * address" of the 429 test was now and then the throttled one (CI of 2026-11-26: 429, not 200).
 */
const DOCUMENTATION_RANGES = ['192.0.2', '198.51.100', '203.0.113'];
let nextAddress = randomInt(DOCUMENTATION_RANGES.length * 254);
const address = () => {
  const n = nextAddress++ % (DOCUMENTATION_RANGES.length * 254);
  return `${DOCUMENTATION_RANGES[Math.floor(n / 254)]}.${(n % 254) + 1}`;
};

/**
 * The throttle's windows are fixed and aligned (60 s here): 20 failures sent across the end of
 * one are counted in two, and the 21st request is a 401, not a 429 (a full run of 2026-11-27).
 * A test that must see one address reach the limit starts it in a window with `roomMs` left.
 */
async function startInFreshWindow(roomMs = 20_000, windowMs = 60_000) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < roomMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

async function get(gateway: RunningGateway, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': key, ...headers } });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function metric(gateway: RunningGateway, series: string): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('failed authentication, throttled per address', () => {
  it('remembers an unknown key id: 15 tries of one unknown key cost one lookup; a malformed key costs none', async () => {
    const from = { 'x-forwarded-for': address() };
    const key = unknownKey();
    const before = keyLookups;
    for (let i = 0; i < 15; i++) expect((await get(proxied, key, from)).status).toBe(401);
    expect(keyLookups - before).toBe(1);
    for (let i = 0; i < 3; i++) expect((await get(proxied, 'not-a-key', from)).status).toBe(401);
    expect(keyLookups - before).toBe(1);
  });

  it('answers 429 with the limit headers after 20 failures from one address, and looks no more keys up for it', async () => {
    const from = { 'x-forwarded-for': address() };
    await startInFreshWindow();
    const failuresBefore = await metric(proxied, 'icon_gateway_auth_failures_total');
    const before = keyLookups;
    for (let i = 0; i < 20; i++) expect((await get(proxied, unknownKey(), from)).status).toBe(401);
    expect(keyLookups - before).toBe(20); // one lookup per distinct bad key
    const refused = [];
    for (let i = 0; i < 30; i++) refused.push(await get(proxied, unknownKey(), from));
    expect(refused.map((response) => response.status)).toEqual(Array(30).fill(429));
    expect(keyLookups - before).toBe(20); // none for the refused ones
    const { headers, body } = refused[0]!;
    expect(JSON.parse(body)).toEqual({ error: { code: 429, message: expect.stringMatching(/^Too many failed authentications from this address: 20 in 60 seconds\. Try again in \d+ seconds\.$/) } });
    expect(headers.get('x-ratelimit-limit')).toBe('20');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = Number(headers.get('x-ratelimit-reset'));
    expect(reset % 60).toBe(0);
    expect(Math.abs(reset - (Date.now() / 1000 + retryAfter))).toBeLessThanOrEqual(2);
    // The address is refused whatever key it shows: telling a good one from a guess takes the lookup.
    expect((await get(proxied, validKey, from)).status).toBe(429);
    // Other addresses are not.
    expect((await get(proxied, validKey, { 'x-forwarded-for': address() })).status).toBe(200);
    expect(await metric(proxied, 'icon_gateway_auth_failures_total')).toBe(failuresBefore + 20);
    expect(await metric(proxied, 'icon_gateway_auth_throttled_total')).toBeGreaterThanOrEqual(31);
  });

  it('counts IPv6 clients per /64', async () => {
    const block = `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
    await startInFreshWindow();
    for (let i = 1; i <= 20; i++) expect((await get(proxied, unknownKey(), { 'x-forwarded-for': `${block}::${i.toString(16)}` })).status).toBe(401);
    expect((await get(proxied, unknownKey(), { 'x-forwarded-for': `${block}:0:0:0:ffff` })).status).toBe(429);
    expect((await get(proxied, validKey, { 'x-forwarded-for': `2001:db8:${randomInt(0x10000).toString(16)}::1` })).status).toBe(200);
  });

  it('throttles only what authentication guards: a throttled address still gets the public document and free files', async () => {
    const from = { 'x-forwarded-for': address() };
    const icon = await database.db.prisma.icon.findFirstOrThrow({ where: { premium: false, published: true }, include: { set: true }, orderBy: { id: 'asc' } });
    const file = `${proxied.url}/svg/${icon.set.prefix}/${icon.sourceName}.svg`;
    await startInFreshWindow();
    for (let i = 0; i < 20; i++) expect((await get(proxied, unknownKey(), from)).status).toBe(401);
    expect((await get(proxied, unknownKey(), from)).status).toBe(429);
    // Nothing to authenticate: served.
    const document = await fetch(`${proxied.url}/openapi.json`, { headers: from });
    expect([document.status, (await document.json()).openapi]).toEqual([200, '3.1.0']);
    const svg = await fetch(file, { headers: from });
    expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    await svg.arrayBuffer();
    // A key shown (even on a free file) or a key needed: still 429, no lookup.
    expect((await fetch(file, { headers: { ...from, 'x-api-key': unknownKey() } })).status).toBe(429);
    expect((await fetch(file, { headers: { ...from, authorization: `Bearer ${unknownKey()}` } })).status).toBe(429);
    expect((await fetch(`${proxied.url}/categories`, { headers: from })).status).toBe(429);
    expect((await fetch(`${proxied.url}/graphql?query=%7B__typename%7D`, { headers: from })).status).toBe(429);
  });

  it('exempts the addresses of exemptAddresses (off by default), and only those', async () => {
    const exempting = (config: string) => {
      const edited = behindOneProxy(config).replace('exemptAddresses: []', 'exemptAddresses: [198.51.100.0/25, "2001:db8:ffff::/48"]');
      expect(edited).toContain('198.51.100.0/25');
      return edited;
    };
    const gateway = await withConfig(exempting, (dir) => startGatewayInProcess(database.db, { dir, env: memoryEnv }));
    try {
      await startInFreshWindow();
      const before = keyLookups;
      for (const exempt of ['198.51.100.9', '2001:db8:ffff:1::2', '::ffff:198.51.100.10']) {
        const statuses = [];
        for (let i = 0; i < 25; i++) statuses.push((await get(gateway, unknownKey(), { 'x-forwarded-for': exempt })).status);
        expect(statuses).toEqual(Array(25).fill(401));
      }
      expect(keyLookups - before).toBe(75);
      // Just outside the ranges: throttled as ever.
      for (const outside of ['198.51.100.200', '2001:db8:fffe::1']) {
        for (let i = 0; i < 20; i++) expect((await get(gateway, unknownKey(), { 'x-forwarded-for': outside })).status).toBe(401);
        expect((await get(gateway, unknownKey(), { 'x-forwarded-for': outside })).status).toBe(429);
      }
    } finally {
      await gateway.close();
    }
  });

  // Last on `direct`: its one address (127.0.0.1) stays throttled for the rest of the window.
  it('believes no X-Forwarded-For without trustedProxies: a client cannot escape by inventing addresses', async () => {
    await startInFreshWindow();
    for (let i = 0; i < 20; i++) expect((await get(direct, unknownKey(), { 'x-forwarded-for': address() })).status).toBe(401);
    expect((await get(direct, unknownKey(), { 'x-forwarded-for': address() })).status).toBe(429);
    expect((await get(direct, validKey, { 'x-forwarded-for': address() })).status).toBe(429);
  });
});

describe.skipIf(Boolean(await redisUnavailable()))('failed authentication counted in Redis, shared by two gateways', () => {
  let gateways: RunningGateway[] = [];
  beforeAll(async () => {
    const env = { ...memoryEnv, REDIS_URL };
    gateways = await Promise.all([1, 2].map(() => withConfig(behindOneProxy, (dir) => startGatewayInProcess(database.db, { dir, env }))));
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  });

  it('holds one count across both: 20 failures, then each answers 429 from its next failure on', async () => {
    // An address no earlier run used: Redis keeps counts for the rest of their window.
    const address = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
    const from = { 'x-forwarded-for': address };
    const redis = new Redis(REDIS_URL);
    /**
     * A failure is counted after its response is sent (onComplete), so under load the next
     * request can arrive before it: wait until Redis holds it, so that the sequence is the one
     * this test describes and not a race with the count. A count the gateway could not write
     * (its Redis timeout passed on a loaded machine: not counted, by design) is waited for 5 s
     * once, then no more. Waiting 5 s for it at every request is the likely cause of a full run
     * (2026-11-26) timing this test out at 120 s; alone it passed in 8 s.
     */
    let lost = 0;
    const counted = async (failures: number) => {
      const key = `icon-catalogue:authfail:${addressKey(address)}`;
      let count = Number(await redis.get(key));
      for (let waited = 0; count < failures - lost && waited < 5_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        count = Number(await redis.get(key));
      }
      lost = Math.max(lost, failures - count);
    };
    const statuses = [];
    await startInFreshWindow(40_000);
    try {
      for (let i = 0; i < 40; i++) {
        statuses.push((await get(gateways[i % 2]!, unknownKey(), from)).status);
        await counted(statuses.filter((status) => status === 401).length);
      }
    } finally {
      redis.disconnect();
    }
    // 20 failures; the gateway that did not see the 20th learns of it from its own next failure.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(21);
    expect(statuses.slice(22)).toEqual(Array(18).fill(429));
  });
});
