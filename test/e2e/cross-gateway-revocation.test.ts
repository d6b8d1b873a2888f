// Two gateways sharing PostgreSQL and the real Redis, each keeping key records for 300 s
// (keyCacheSeconds) and portal sessions in Redis: a key revoked on one gateway's portal, or
// revoked by the CLI's `accounts disable`, stops working on the other at once (pub/sub), long
// before its cached record would run out; and a portal session made on one gateway is signed in
// on the other (the sessions are in Redis), until "End all sessions" on either.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/commands.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { Visitor } from '../helpers/portal-visitor.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';
import { pollUntil } from '../helpers/wait.ts';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());
const PASSWORD = 'correct horse battery';
/** Far longer than any test waits: a key that stops working did not do so by its record running out. */
const KEY_CACHE_SECONDS = 300;

describe.skipIf(skip)('two gateways sharing PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let configDir: string;
  let first: RunningGateway;
  let second: RunningGateway;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    configDir = await mkdtemp(join(tmpdir(), 'cross-gateway-'));
    const config = (await readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8'))
      .replace('publicPaths: [/openapi.json]', `publicPaths: [/openapi.json]\n            keyCacheSeconds: ${KEY_CACHE_SECONDS}`)
      .replace('            usage: {', '            sessions: { store: redis }\n            usage: {');
    await writeFile(join(configDir, '.meshrc.yaml'), config);
    const env = { ...process.env, REDIS_URL, REDIS_CLUSTER_NODES: '' };
    first = await startGatewayInProcess(database.db, { dir: configDir, env });
    second = await startGatewayInProcess(database.db, { dir: configDir, env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  const icons = (gateway: RunningGateway, key: string) => fetch(`${gateway.url}/icons?per_page=1`, { headers: { 'x-api-key': key } });
  /** The status of `key` on `gateway` once it is no longer 200 (or 200 after the wait). */
  const stopsWorking = (gateway: RunningGateway, key: string) =>
    pollUntil(async () => (await icons(gateway, key)).status, (status) => status !== 200, { timeoutMs: 30_000 });

  async function signedUp(gateway: RunningGateway, email: string): Promise<Visitor> {
    const visitor = new Visitor(gateway.url);
    expect((await visitor.signUp(email, PASSWORD)).status).toBe(303);
    expect((await visitor.signIn(email, PASSWORD)).status).toBe(303);
    return visitor;
  }

  it('a key revoked on one gateway’s portal gets 401 on the other at once', async () => {
    const visitor = await signedUp(first, 'revoker@example.com');
    const key = await visitor.createKey('shared');
    // Both gateways now hold the key's record for KEY_CACHE_SECONDS.
    expect((await icons(first, key)).status).toBe(200);
    expect((await icons(second, key)).status).toBe(200);
    const revoked = await visitor.post(`/account/keys/${key.split('_')[1]}/revoke`, { csrf: await visitor.token('/account') });
    expect(revoked.status).toBe(303);
    expect((await icons(first, key)).status).toBe(401);
    expect(await stopsWorking(second, key)).toBe(401);
  });

  it('the keys of an account disabled with the CLI get 401 on every gateway at once', async () => {
    const visitor = await signedUp(second, 'disabled-everywhere@example.com');
    const key = await visitor.createKey('everywhere');
    expect((await icons(first, key)).status).toBe(200);
    expect((await icons(second, key)).status).toBe(200);
    const saved = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };
    Object.assign(process.env, { DATABASE_URL: database.url!, REDIS_URL });
    try {
      const out: string[] = [];
      const code = await runCli(['accounts', 'disable', '--account', 'disabled-everywhere@example.com'], { out: (line) => out.push(line), err: () => {}, isTTY: false, stderr: undefined });
      expect(code).toBe(0);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(await stopsWorking(first, key)).toBe(401);
    expect(await stopsWorking(second, key)).toBe(401);
  });

  it('a session made on one gateway is signed in on the other, and "End all sessions" ends it on both', async () => {
    const visitor = await signedUp(first, 'roaming@example.com');
    const elsewhere = new Visitor(second.url);
    elsewhere.cookie = visitor.cookie;
    expect((await elsewhere.get('/account')).status).toBe(200);
    const ended = await elsewhere.post('/account/sign-out-everywhere', { csrf: await elsewhere.token('/account') });
    expect(ended.status).toBe(303);
    expect((await visitor.get('/account')).headers.get('location')).toBe('/account/sign-in');
  });
});
