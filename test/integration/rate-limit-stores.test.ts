// The same assertions for every rate-limit store: counting, independence of keys, exactness
// under concurrency. Then Redis's own cases: windows on Redis's clock whatever the gateway's
// (issue 11, item 2), no request failed open while Redis answers and the event loop is busy
// (item 1), a stalled Redis costing one deadline and then nothing, reported once each way
// (item 9), and what an unreachable store does to the limiter.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadlineError } from '../../gateway/plugins/rate-limit/deadline.ts';
import { RateLimiter, type RateLimitDecision } from '../../gateway/plugins/rate-limit/limiter.ts';
import { MemoryStore } from '../../gateway/plugins/rate-limit/memory-store.ts';
import { parseClusterNodes, RedisStore, StoreDownError } from '../../gateway/plugins/rate-limit/redis-store.ts';
import { windowOf, type RateLimitStore } from '../../gateway/plugins/rate-limit/store.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';
import { redisClusterUnavailable, startRedisCluster, type RunningCluster } from '../helpers/redis-cluster.ts';

const redisSkip = await redisUnavailable();
const HOUR = 3_600_000;
const opened: RateLimitStore[] = [];
let admin: Redis | undefined;
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  admin?.disconnect();
});

function adminClient(): Redis {
  admin ??= new Redis(REDIS_URL);
  return admin;
}

/** Redis's own time, ms since the epoch. */
async function redisNow(): Promise<number> {
  const [seconds, micros] = await adminClient().time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

const STORES = [
  { name: 'memory', skip: false, open: () => new MemoryStore(), clock: async () => Date.now() },
  { name: 'redis', skip: Boolean(redisSkip), open: () => new RedisStore({ url: REDIS_URL, keyPrefix: `test:${randomUUID()}:` }), clock: redisNow },
];

async function connected<T extends RateLimitStore>(store: T): Promise<T> {
  opened.push(store);
  expect(await store.connect()).toBe(true);
  return store;
}

const allowedOf = (decisions: RateLimitDecision[]) => decisions.filter((d) => d.allowed).length;
const uncountedOf = (decisions: RateLimitDecision[]) => decisions.filter((d) => d.storeFailed).length;

describe.each(STORES)('$name store', ({ skip, open, clock }) => {
  const store = () => connected(open());

  it.skipIf(skip)("counts hits per key, saying when the store's window ends and how long until then", async () => {
    const s = await store();
    const before = await clock();
    const first = await s.hit('a', HOUR, Date.now());
    const after = await clock();
    expect(first.count).toBe(1);
    expect([windowOf(before, HOUR).end, windowOf(after, HOUR).end]).toContain(first.resetAt);
    expect(first.resetAt - first.resetsIn).toBeGreaterThanOrEqual(before - 1);
    expect(first.resetAt - first.resetsIn).toBeLessThanOrEqual(after + 1);
    expect((await s.hit('a', HOUR, Date.now())).count).toBe(2);
    expect((await s.hit('b', HOUR, Date.now())).count).toBe(1);
  });

  it.skipIf(skip)('lets exactly the limit through when 1,000 requests arrive at once', async () => {
    const limiter = new RateLimiter({ store: await store() });
    const decisions = await Promise.all(Array.from({ length: 1000 }, () => limiter.check('burst', 300)));
    expect(allowedOf(decisions)).toBe(300);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
  });
});

describe('the memory store', () => {
  it("keeps windows on the clock the limiter is given: a new window at the clock's next hour", async () => {
    const hourStart = windowOf(Date.now(), HOUR).start;
    let now = hourStart + HOUR - 1_500;
    const limiter = new RateLimiter({ store: new MemoryStore(), clock: () => now });
    expect(await limiter.check('k', 2)).toMatchObject({ allowed: true, remaining: 1, resetAt: (hourStart + HOUR) / 1000 });
    await limiter.check('k', 2);
    expect(await limiter.check('k', 2)).toMatchObject({ allowed: false, retryAfter: 2 });
    now += 2_000;
    expect(await limiter.check('k', 2)).toMatchObject({ allowed: true, remaining: 1, resetAt: (hourStart + 2 * HOUR) / 1000 });
  });
});

describe.skipIf(redisSkip)("Redis: windows on Redis's clock, whatever the gateways' clocks (item 2)", () => {
  const redisStore = (prefix = `test:${randomUUID()}:`) => connected(new RedisStore({ url: REDIS_URL, keyPrefix: prefix }));

  it('holds a limit of 5 for a gateway whose clock is behind Redis across the hour, with Reset and Retry-After from Redis', async () => {
    const now = await redisNow();
    // The gateway believes it is 10 s before the hour Redis is already in (with its own clock,
    // the counter's expiry was that hour's start, already past for Redis: 20 of 20 passed).
    const behind = windowOf(now, HOUR).start - 10_000;
    const limiter = new RateLimiter({ store: await redisStore(), clock: () => behind });
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < 20; i++) decisions.push(await limiter.check('skewed', 5));
    expect(allowedOf(decisions)).toBe(5);
    expect(uncountedOf(decisions)).toBe(0);
    const refused = decisions.at(-1)!;
    const end = windowOf(now, HOUR).end;
    expect(refused.resetAt).toBe(end / 1000);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(Math.floor((end - now) / 1000) - 2);
    expect(refused.retryAfter).toBeLessThanOrEqual(Math.ceil((end - now) / 1000));
  });

  it('shares one window between gateways whose clocks disagree by hours', async () => {
    const prefix = `test:${randomUUID()}:`;
    const ahead = new RateLimiter({ store: await redisStore(prefix), clock: () => Date.now() + 2 * HOUR + 600_000 });
    const behind = new RateLimiter({ store: await redisStore(prefix), clock: () => Date.now() - 3 * HOUR - 1_200_000 });
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? ahead : behind).check('shared', 5)));
    expect(allowedOf(decisions)).toBe(5);
    expect(new Set(decisions.map((d) => d.resetAt)).size).toBe(1);
  });
});

describe.skipIf(redisSkip)('Redis and a busy event loop: no request passes uncounted while Redis answers (item 1)', () => {
  const busyFor = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  // Each batch of requests is followed by a synchronous stretch (what a burst of HTTP requests
  // does to a gateway), so timers come due before the socket holding the replies is read, and
  // ioredis's auto-pipelines queue behind each other. Before: 900 of 1,000 passed uncounted
  // with 100 ms stretches.
  it.each([120, 250, 500])('lets exactly 300 of 1,000 through three clients when the loop is blocked %i ms after each batch of 100', async (lag) => {
    const prefix = `test:${randomUUID()}:`;
    const limiters = await Promise.all([1, 2, 3].map(async () => new RateLimiter({ store: await connected(new RedisStore({ url: REDIS_URL, keyPrefix: prefix })), warn: () => {} })));
    const pending: (RateLimitDecision | Promise<RateLimitDecision>)[] = [];
    for (let batch = 0; batch < 10; batch++) {
      for (let i = 0; i < 100; i++) pending.push(limiters[i % 3]!.check('burst', 300));
      busyFor(lag);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const decisions = await Promise.all(pending);
    expect(uncountedOf(decisions)).toBe(0);
    expect(allowedOf(decisions)).toBe(300);
  });

  it('counts a hit whose reply the busy event loop read late, instead of failing it open', async () => {
    const s = await connected(new RedisStore({ url: REDIS_URL, keyPrefix: `test:${randomUUID()}:`, commandTimeoutMs: 100 }));
    const pending = s.hit('busy', HOUR);
    // Right after the store has written the command (with the turn's other hits, in a
    // setImmediate queued before this one), the loop is blocked for three deadlines, so the
    // reply waits unread in the socket while the timers come due.
    setImmediate(() => busyFor(350));
    await expect(pending).resolves.toMatchObject({ count: 1 });
    expect((await s.hit('busy', HOUR)).count).toBe(2);
  });
});

describe.skipIf(redisSkip)("Redis: one turn's hits of a key are one call", () => {
  /** The commands Redis runs on counters under `prefix` (its scripts' included), as MONITOR shows them. */
  async function watchCommands(prefix: string): Promise<{ seen: string[][]; stop: () => void }> {
    const monitor = await new Redis(REDIS_URL).monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.startsWith(prefix))) seen.push(args);
    });
    return { seen, stop: () => monitor.disconnect() };
  }
  const incrementsOf = (seen: string[][]) => seen.filter(([name]) => name?.toUpperCase() === 'INCRBY').map(([, key, by]) => [key, by]);

  it('counts n hits of one key asked for in one turn with one INCRBY of n, the i-th hit getting count i, the expiry set once', async () => {
    const prefix = `test:${randomUUID()}:`;
    const s = await connected(new RedisStore({ url: REDIS_URL, keyPrefix: prefix }));
    const watch = await watchCommands(prefix);
    try {
      const a = Array.from({ length: 50 }, () => s.hit('a', HOUR));
      const b = Array.from({ length: 20 }, () => s.hit('b', HOUR));
      const shortWindow = s.hit('a', 60_000);
      expect((await Promise.all(a)).map((hit) => hit.count)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await Promise.all(b)).map((hit) => hit.count)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await shortWindow).count).toBe(51); // one counter per key, whatever the window length asked
      expect((await s.hit('a', HOUR)).count).toBe(52); // the next turn goes on from there
      // MONITOR's lines arrive on their own connection, in the order Redis ran the commands: once
      // a command sent after the store's is seen, every one of the store's has been.
      const marker = `${prefix}seen-all`;
      await adminClient().exists(marker);
      await waitFor(() => watch.seen.some(([name, key]) => name?.toUpperCase() === 'EXISTS' && key === marker), 'MONITOR to show the marker command');
      expect(incrementsOf(watch.seen)).toEqual([
        [`${prefix}a`, '50'],
        [`${prefix}b`, '20'],
        [`${prefix}a`, '1'],
        [`${prefix}a`, '1'],
      ]);
      // Created by the first call: it alone set the expiry (within the hour).
      expect(watch.seen.filter(([name, key]) => name?.toUpperCase() === 'PEXPIRE' && key === `${prefix}a`)).toHaveLength(1);
      const ttl = await adminClient().pttl(`${prefix}a`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(HOUR);
    } finally {
      watch.stop();
    }
  });

  it("fails only the hits of a key whose call Redis refused, not the turn's others, and stays up", async () => {
    const prefix = `test:${randomUUID()}:`;
    const s = await connected(new RedisStore({ url: REDIS_URL, keyPrefix: prefix }));
    await adminClient().set(`${prefix}broken`, 'not a number');
    const [broken, fine] = await Promise.allSettled([s.hit('broken', HOUR), s.hit('fine', HOUR)]);
    expect(broken.status === 'rejected' && String(broken.reason)).toMatch(/not an integer/);
    expect(fine).toMatchObject({ status: 'fulfilled', value: { count: 1 } });
    expect(s.isDown).toBe(false);
    expect((await s.hit('fine', HOUR)).count).toBe(2);
  });
});

describe.skipIf(redisSkip)('a stalled Redis (item 9)', () => {
  const redisPort = Number(new URL(REDIS_URL).port || 6379);

  const DEADLINE = 1_000;

  it('costs concurrent requests one deadline, then nothing while it stays stalled; down and up are reported once each', async () => {
    const proxy = await new TcpProxy('127.0.0.1', redisPort).start();
    const events: string[] = [];
    try {
      const s = await connected(
        new RedisStore({
          url: `redis://127.0.0.1:${proxy.port}`,
          keyPrefix: `test:${randomUUID()}:`,
          commandTimeoutMs: DEADLINE,
          probeEveryMs: 100,
          onDown: (reason) => events.push(`down: ${reason}`),
          onUp: () => events.push('up'),
        }),
      );
      expect((await s.hit('stall', HOUR)).count).toBe(1);
      const acceptedBefore = proxy.accepted;
      proxy.stall();
      // Ten at once, as concurrent requests send them (one call counts them all): each waits one
      // deadline, not two (ioredis's own timeout, counted from each write, doubled it). The
      // deadline is long so that a loaded machine's delays stay well under a second one.
      const started = performance.now();
      const stalled = await Promise.allSettled(Array.from({ length: 10 }, () => s.hit('stall', HOUR)));
      const waited = performance.now() - started;
      expect(stalled.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DeadlineError)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(DEADLINE - 5);
      expect(waited).toBeLessThan(2 * DEADLINE);
      // Known down: refused with StoreDownError, which is thrown before any command is sent (a
      // request that waited would end with a DeadlineError), while the probes keep failing in the
      // background. A probe that meets the deadline replaces the silent connection: the proxy
      // seeing a new one is the sign that one has failed, and still nothing more is reported.
      for (let i = 0; i < 5; i++) await expect(s.hit('stall', HOUR)).rejects.toThrow(StoreDownError);
      await waitFor(() => proxy.accepted > acceptedBefore, 'a probe to fail and replace the connection');
      await expect(s.hit('stall', HOUR)).rejects.toThrow(StoreDownError);
      expect(s.isDown).toBe(true);
      expect(events).toEqual([`down: no answer from Redis within ${DEADLINE} ms`]);
      proxy.resume();
      await waitFor(() => !s.isDown, 'the store to be up again');
      expect(events).toEqual([`down: no answer from Redis within ${DEADLINE} ms`, 'up']);
      // Redis ran every command it was sent during the stall; only its replies were held.
      expect((await s.hit('stall', HOUR)).count).toBe(12);
    } finally {
      await proxy.stop();
    }
  });
});

describe('an unreachable store', () => {
  const unreachable = () => {
    const s = new RedisStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    opened.push(s);
    return s;
  };

  // A hang would be the test's timeout; the budget is many times the 300 ms connect and 100 ms
  // command deadlines, so only a missing deadline (not a loaded machine) can exceed it.
  it('fails the hit within its deadlines, never hanging', async () => {
    const started = Date.now();
    expect(await unreachable().connect(300)).toBe(false);
    await expect(unreachable().hit('x', HOUR)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await unreachable().ping()).toBe(false);
  });

  it('lets requests through uncounted when failing open, refuses them when failing closed, and warns once a minute at most', async () => {
    const warnings: string[] = [];
    const open = new RateLimiter({ store: unreachable(), warn: (m) => warnings.push(m) });
    expect(await open.check('x', 10)).toEqual({ allowed: true, limit: 10, storeFailed: true });
    await open.check('x', 10);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not count .*: 1 request\(s\) let through uncounted \(failOpen: true\)/);
    const closed = new RateLimiter({ store: unreachable(), failOpen: false, warn: () => {} });
    expect(await closed.check('x', 10)).toEqual({ allowed: false, limit: 10, storeFailed: true, retryAfter: 1 });
  });
});

describe.skipIf(Boolean(await redisClusterUnavailable()))('Redis Cluster (three nodes, REDIS_CLUSTER_NODES)', () => {
  let cluster: RunningCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('stays exact across shards and clients: 40 keys, 3 clients, 1,200 concurrent requests, limit 10 each', async () => {
    const prefix = `test:${randomUUID()}:`;
    const stores = await Promise.all([1, 2, 3].map(() => connected(new RedisStore({ clusterNodes: parseClusterNodes(cluster.nodes), keyPrefix: prefix }))));
    const limiters = stores.map((store) => new RateLimiter({ store }));
    const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
    const decisions = await Promise.all(Array.from({ length: 1200 }, (_, i) => Promise.resolve(limiters[i % 3]!.check(keys[i % 40]!, 10)).then((d) => [keys[i % 40]!, d.allowed] as const)));
    for (const key of keys) expect(decisions.filter(([k, allowed]) => k === key && allowed)).toHaveLength(10);
    expect(decisions.filter(([, allowed]) => allowed)).toHaveLength(400);
    // The counters really are spread over the three shards.
    const perNode = await cluster.keysPerNode(`${prefix}*`);
    expect(perNode).toHaveLength(3);
    for (const count of perNode) expect(count).toBeGreaterThan(0);
    expect(perNode.reduce((a, b) => a + b, 0)).toBe(40);
    expect(await stores[0]!.ping()).toBe(true);
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  it('reads host:port lists and redis:// URLs, and rejects what is neither', () => {
    expect(parseClusterNodes('10.0.0.1:7000, redis://:s3cret@10.0.0.2:7001')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001, password: 's3cret' },
    ]);
    expect(parseClusterNodes('rediss://10.0.0.3:7002')).toEqual([{ host: '10.0.0.3', port: 7002, tls: true }]);
    expect(() => parseClusterNodes('redis://:7000')).toThrow(/entry 1 is not host:port/);
    const refused = (() => {
      try {
        parseClusterNodes('10.0.0.1:7000,http://user:hunter2@bad');
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(refused).toMatch(/entry 2/);
    expect(refused).not.toContain('hunter2');
  });
});
