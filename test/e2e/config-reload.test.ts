// Config reloads of `npm start` as a child process (issue 50): `kill -HUP` re-reads .meshrc.yaml
// and the operations and switches gateways between requests. Over real sockets, with a client
// whose keep-alive connection stays open across the reload: a new route answers; a request in
// flight finishes on the old gateway, which closes only after it; rate-limit counts, the
// failed-auth throttle, unwritten downloads, the caches of unchanged routes and the Redis
// connections survive; a changed route's cache is dropped; a config that does not validate
// leaves the running gateway serving, with one error line and a metric; busy clients see no
// error across reloads. Waits are for log lines, never fixed sleeps.
import { readFile, writeFile } from 'node:fs/promises';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { CATEGORY_ICONS_ROUTE, edit, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayProcess } from '../helpers/gateway.ts';
import { RawConnection } from '../helpers/raw-http.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';

type ChildGateway = Awaited<ReturnType<typeof startGatewayProcess>>;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's end of the connection it came on: the same port, the same connection. */
  localPort: number;
}

/** A client on one keep-alive connection (the agent holds one socket and reuses it). */
function keepAliveClient(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
      return new Promise((done, fail) => {
        const req = request(`${url}${path}`, { agent, headers }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => done({ status: response.statusCode!, headers: response.headers, body, localPort: req.socket!.localPort! }));
          response.on('error', fail);
        });
        req.on('error', fail);
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;

/** Until the gateway's output has `times` lines matching `pattern` (polled; fails after 60 s). */
async function waitForLines(gateway: ChildGateway, pattern: RegExp, times = 1): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (count(gateway.output(), pattern) < times) {
    if (Date.now() > deadline || gateway.child.exitCode !== null) throw new Error(`no ${times}x ${pattern} in the gateway's output:\n${gateway.output().slice(-4000)}`);
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

/** The messages of the reload errors the gateway logged (JSON lines: quotes in them are escaped). */
const failedLines = (gateway: ChildGateway) =>
  gateway
    .output()
    .split('\n')
    .filter((line) => FAILED.test(line))
    .map((line) => `${(JSON.parse(line) as { msg: string }).msg} "file":"${(JSON.parse(line) as { file: string }).file}"`);

const RELOADED = /Reloaded \S+\.meshrc\.yaml \(SIGHUP\)/;
const FAILED = /Reload \(SIGHUP\) failed; still serving the previous config: [^\n]*/;

/** Writes the config, sends SIGHUP, waits for the reload's line (the `times`-th such line). */
async function reloadWith(gateway: ChildGateway, dir: string, config: string, line: RegExp, times: number): Promise<void> {
  await writeFile(join(dir, '.meshrc.yaml'), config);
  gateway.child.kill('SIGHUP');
  await waitForLines(gateway, line, times);
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

/** The settings both tests start from: an address's X-Forwarded-For believed (one proxy), so the throttle test throttles only its own address. */
const BASE_EDITS: [string, string][] = [
  ['trustedProxies: 0', 'trustedProxies: 1'],
  ['            limit: 20\n', '            limit: 3\n'],
  // download-counts' own line (the account portal's usage has a flushSeconds too, inline).
  ['\n            flushSeconds: 5\n', '\n            flushSeconds: 3600\n'],
];

const noRedis = Boolean(await redisUnavailable());

describe.skipIf(await postgresUnavailable())('npm start: config reload on SIGHUP', () => {
  let database: TestDatabase;
  let key: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    // No limit of its own: the configured hourlyLimit is the one in force.
    key = (await createApiKey(database.db.prisma, { accountName: `reload-${Date.now()}` })).key;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('adds a route on the same keep-alive connection, finishes a request in flight on the old gateway, keeps counts, throttle, downloads and unchanged caches', async () => {
    const { prisma } = database.db;
    const icon = await prisma.icon.findFirstOrThrow({ where: { published: true, premium: false }, include: { set: true }, orderBy: { id: 'asc' } });
    const category = await prisma.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const downloadsOf = async () => (await prisma.icon.findUniqueOrThrow({ where: { id: icon.id }, select: { downloads: true } })).downloads;
    const downloadsBefore = await downloadsOf();

    await withConfig(
      (config) => edit(config, BASE_EDITS),
      async (dir) => {
        const gateway = await startGatewayProcess({ DATABASE_URL: database.url!, GATEWAY_CONFIG_DIR: dir, LOG_LEVEL: 'warn', REDIS_URL: '' });
        const client = keepAliveClient(gateway.url);
        const keyed = { 'x-api-key': key, 'x-forwarded-for': '10.1.1.1' };
        try {
          expect(gateway.output()).toMatch(new RegExp(`Serving on http://\\S+ \\(pid ${gateway.child.pid},`));
          const original = await readFile(join(dir, '.meshrc.yaml'), 'utf8');

          // Before: caches filled, the key counted, an address throttled, downloads counted but not written.
          expect((await client.get('/categories', keyed)).headers['x-cache']).toBe('MISS');
          expect((await client.get('/sets', keyed)).headers['x-cache']).toBe('MISS');
          expect((await client.get('/categories', keyed)).headers['x-cache']).toBe('HIT');
          const last = await client.get('/sets', keyed);
          expect(last.headers['x-cache']).toBe('HIT');
          expect(last.headers['x-ratelimit-limit']).toBe('1000');
          expect(last.headers['x-ratelimit-remaining']).toBe('996');
          const port = last.localPort;
          const guesser = { 'x-api-key': 'ick_AAAAAAAAAA_notakeynotakeynotakeynotakeyno', 'x-forwarded-for': '10.9.9.9' };
          for (let i = 0; i < 3; i++) expect((await client.get('/categories', guesser)).status).toBe(401);
          // The third failure's count arrives after its response: wait until the address is refused.
          let throttled = await client.get('/categories', guesser);
          while (throttled.status === 401) throttled = await client.get('/categories', guesser);
          expect(throttled.status).toBe(429);
          const file = `/svg/${icon.set.prefix}/${icon.sourceName}.svg`;
          for (let i = 0; i < 3; i++) expect((await client.get(file, { 'x-forwarded-for': '10.2.2.2' })).status).toBe(200);
          expect(await client.get(`/categories/${category.slug}/icons`, keyed)).toMatchObject({ status: 404 });

          // A GraphQL request in flight across the reload: headers and part of its body before.
          const body = JSON.stringify({ query: '{ categories { slug } }' });
          const inFlight = await RawConnection.open(gateway.url);
          await inFlight.write(
            `POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\nX-Forwarded-For: 10.3.3.3\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
          );
          // Its headers are parsed (and its pipeline run) long before a reload has built its gateway.

          const changed = edit(original, [
            CATEGORY_ICONS_ROUTE,
            ['hourlyLimit: 1000', 'hourlyLimit: 1200'],
            ['Ordered by name. `icon_count` counts published icons;', 'Ordered by name; `icon_count` counts published icons;'],
          ]);
          await reloadWith(gateway, dir, changed, RELOADED, 1);

          // The new route, on the connection opened before the reload.
          const added = await client.get(`/categories/${category.slug}/icons`, keyed);
          expect(added.status).toBe(200);
          expect(JSON.parse(added.body).data.length).toBeGreaterThan(0);
          expect(added.localPort).toBe(port);
          // The count went on (4 requests of this key before, the one in flight, this one) under the new limit.
          expect(added.headers['x-ratelimit-limit']).toBe('1200');
          expect(added.headers['x-ratelimit-remaining']).toBe(String(1200 - 6));
          // The changed route starts empty; the unchanged one kept its response.
          expect((await client.get('/categories', keyed)).headers['x-cache']).toBe('MISS');
          expect((await client.get('/sets', keyed)).headers['x-cache']).toBe('HIT');
          // The throttled address still is.
          expect((await client.get('/categories', guesser)).status).toBe(429);
          // The old gateway waits for its request in flight.
          expect(gateway.output()).not.toMatch(/Previous config closed/);

          await inFlight.write(body.slice(10));
          const finished = await inFlight.response();
          expect(finished?.status).toBe(200);
          expect(JSON.parse(finished!.body).data.categories.length).toBeGreaterThan(0);
          // Answered by the gateway it started on: the limit of the config before.
          expect(finished!.headers['x-ratelimit-limit']).toBe('1000');
          await waitForLines(gateway, /Previous config closed once its 1 request\(s\) in flight finished/);

          // Closing the old gateway wrote no downloads: the counter went on to the new one, which writes them on stop.
          expect(await downloadsOf()).toBe(downloadsBefore);
          const metrics = await client.get('/metrics');
          expect(metric(metrics.body, 'icon_gateway_config_reloads_total{result="applied"}')).toBe(1);
          expect(metric(metrics.body, 'icon_gateway_config_last_reload_successful')).toBe(1);
          client.close();
          await gateway.close();
          expect(gateway.child.exitCode).toBe(0);
          expect(await downloadsOf()).toBe(downloadsBefore + 3);
        } finally {
          client.close();
          if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
        }
      },
    );
  });

  it.skipIf(noRedis)(
    'refuses configs that do not validate and keeps serving; reports the port as needing a restart; busy clients see no error across reloads; keeps its Redis connections',
    async () => {
      await withConfig(
        (config) => edit(config, BASE_EDITS),
        async (dir) => {
          const gateway = await startGatewayProcess({ DATABASE_URL: database.url!, GATEWAY_CONFIG_DIR: dir, LOG_LEVEL: 'warn', REDIS_URL });
          const redis = new Redis(REDIS_URL);
          const connections = async () =>
            String(await redis.call('CLIENT', 'LIST'))
              .split('\n')
              .filter((line: string) => line.includes(`name=icon-catalogue:rate-limit:${gateway.child.pid} `))
              .map((line: string) => /\bid=(\d+)/.exec(line)![1]);
          const client = keepAliveClient(gateway.url);
          const keyed = { 'x-api-key': key, 'x-forwarded-for': '10.4.4.4' };
          try {
            const original = await readFile(join(dir, '.meshrc.yaml'), 'utf8');
            expect((await client.get('/categories', keyed)).status).toBe(200);
            const redisBefore = await connections();
            expect(redisBefore.length).toBe(1);

            const broken: [string, string, RegExp][] = [
              ['bad YAML', edit(original, [['trustedProxies: 1', 'trustedProxies: [1']]), /\.meshrc\.yaml: .*(flow|collection|sequence|end)/i],
              ['unknown plugin', edit(original, [['        - cors:', '        - corz:']]), /\.meshrc\.yaml is invalid: plugins\["@icon-catalogue\/gateway"\]\.plugins\[0\]: names no known plugin/],
              [
                'a route onto a missing operation',
                edit(original, [['operation: ListCategories', 'operation: ListCategoriez']]),
                /\.meshrc\.yaml: plugins\["@icon-catalogue\/gateway"\]\.plugins\[\d+\]\["rest-routes"\]\.routes\[3\]\.operation \(route \/categories\): no operation named ListCategoriez/,
              ],
              ['an option out of bounds', edit(original, [['hourlyLimit: 1000', 'hourlyLimit: -5']]), /\.meshrc\.yaml is invalid: plugins\["@icon-catalogue\/gateway"\]\.plugins\[\d+\]\["rate-limit"\]\.hourlyLimit: /],
            ];
            for (const [index, [what, config, message]] of broken.entries()) {
              await reloadWith(gateway, dir, config, FAILED, index + 1);
              expect(failedLines(gateway)[index], what).toMatch(message);
              expect(failedLines(gateway)[index], what).toContain(`"file":"${join(dir, '.meshrc.yaml')}"`);
              expect((await client.get('/readyz')).status, what).toBe(200);
              expect((await client.get('/categories', keyed)).status, what).toBe(200);
            }
            const metrics = await client.get('/metrics');
            expect(metric(metrics.body, 'icon_gateway_config_reloads_total{result="failed"}')).toBe(4);
            expect(metric(metrics.body, 'icon_gateway_config_last_reload_successful')).toBe(0);
            expect(count(gateway.output(), /"level":"error"/)).toBe(4); // one line each

            // The port cannot move in place: said, and the rest is applied.
            await reloadWith(gateway, dir, `${original}\n  port: 5999\n`.replace('serve:\n', 'serve:\n  hostname: 127.0.0.2\n'), RELOADED, 1);
            expect(gateway.output()).toMatch(/Reload \(SIGHUP\): serve\.port \(unset -> 5999\), serve\.hostname \(unset -> \\"127\.0\.0\.2\\"\) changed; npm start listens on PORT and HOST/);

            // Busy keep-alive clients, cached and uncached routes, across 5 reloads.
            // A key of their own with room for however many requests a fast machine sends in the
            // reloads' time: a 429 here would be the hourly limit, not the reload.
            const busyKey = (await createApiKey(database.db.prisma, { accountName: `reload-busy-${Date.now()}`, hourlyLimit: 10_000_000 })).key;
            const busy = Array.from({ length: 4 }, () => ({ client: keepAliveClient(gateway.url), statuses: [] as number[], ports: new Set<number>(), errors: [] as string[] }));
            let stop = false;
            const paths = ['/categories', '/icons/mdi-home', `/icons?per_page=5&page=${Math.floor(Math.random() * 50) + 2}`, '/sets'];
            const running = busy.map(async (one, n) => {
              for (let i = 0; !stop; i++) {
                try {
                  const answer = await one.client.get(paths[(i + n) % paths.length]!, { 'x-api-key': busyKey, 'x-forwarded-for': `10.5.5.${n}` });
                  one.statuses.push(answer.status);
                  one.ports.add(answer.localPort);
                } catch (error) {
                  one.errors.push((error as Error).message);
                }
              }
            });
            for (let reload = 0; reload < 5; reload++) {
              const seconds = reload % 2 ? 60 : 61;
              await reloadWith(gateway, dir, original.replace('cache: { seconds: 60, scope: shared }', `cache: { seconds: ${seconds}, scope: shared }`), RELOADED, 2 + reload);
              // Until every client was answered after this reload.
              const marks = busy.map((one) => one.statuses.length);
              while (busy.some((one, n) => one.statuses.length < marks[n]! + 3)) await new Promise((wait) => setTimeout(wait, 10));
            }
            stop = true;
            await Promise.all(running);
            for (const one of busy) {
              one.client.close();
              expect(one.errors).toEqual([]);
              expect(one.statuses.filter((status) => status !== 200)).toEqual([]);
              expect(one.ports.size).toBe(1);
            }
            console.info(`5 reloads with 4 busy keep-alive clients: ${busy.reduce((sum, one) => sum + one.statuses.length, 0)} requests, all 200`);

            // The same Redis connection all along (no settings of it changed), none left behind.
            await waitForLines(gateway, RELOADED, 6);
            expect(await connections()).toEqual(redisBefore);
            // A changed Redis setting: a new connection, the old one closed with the old gateway.
            const slower = original.replace('redisTimeoutMs: 200', 'redisTimeoutMs: 300');
            await reloadWith(gateway, dir, slower, RELOADED, 7);
            expect((await client.get('/categories', keyed)).status).toBe(200);
            for (let i = 0; i < 500 && (await connections()).includes(redisBefore[0]!); i++) await new Promise((wait) => setTimeout(wait, 20));
            const after = await connections();
            expect(after.length).toBe(1);
            expect(after).not.toEqual(redisBefore);
          } finally {
            client.close();
            redis.disconnect();
            await gateway.close();
          }
        },
      );
    },
  );
});
