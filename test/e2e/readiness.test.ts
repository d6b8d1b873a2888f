// /healthz and /readyz of a gateway on PostgreSQL and Redis reached through proxies that the
// test takes down and brings back: readiness turns 503 naming what is missing and recovers,
// and while Redis is away the API keeps answering (rate limits fail open).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { ADMIN_URL, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayProcess, type RunningGateway } from '../helpers/gateway.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const skip = Boolean((await postgresUnavailable()) || (await redisUnavailable()));

async function readiness(gateway: RunningGateway) {
  const response = await fetch(`${gateway.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
}

async function eventually(check: () => Promise<boolean>, seconds = 15): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(skip)('health and readiness', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let key: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    key = (await createApiKey(database.db.prisma, { accountName: 'ready' })).key;
    const pg = new URL(database.url!);
    const admin = new URL(ADMIN_URL);
    pgProxy = await new TcpProxy(admin.hostname, Number(admin.port || 5432)).start();
    const redis = new URL(REDIS_URL);
    redisProxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    pg.host = `127.0.0.1:${pgProxy.port}`;
    gateway = await startGatewayProcess({ DATABASE_URL: pg.toString(), REDIS_URL: `redis://127.0.0.1:${redisProxy.port}` });
  });
  afterAll(async () => {
    await gateway?.close();
    await pgProxy?.stop();
    await redisProxy?.stop();
    await database?.drop();
  });

  it('answers /healthz and /readyz without a key while everything is up', async () => {
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(await readiness(gateway)).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } } });
  });

  it('turns 503 while Redis is away, keeps serving the API (fail open), and recovers', async () => {
    await redisProxy.stop();
    try {
      const down = await readiness(gateway);
      expect(down).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } } });
      const started = Date.now();
      const response = await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await redisProxy.start();
    }
    await eventually(async () => (await readiness(gateway)).status === 200);
  });

  it('turns 503 while PostgreSQL is away, and recovers', async () => {
    await pgProxy.stop();
    try {
      const down = await readiness(gateway);
      expect(down.status).toBe(503);
      expect(down.body.checks.database).toBe('unreachable');
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await pgProxy.start();
    }
    await eventually(async () => (await readiness(gateway)).status === 200);
    expect((await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': key } })).status).toBe(200);
  });
});
