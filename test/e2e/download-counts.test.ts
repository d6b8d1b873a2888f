// Downloads counted from real use, over real sockets, on a copy of the demo catalogue in
// PostgreSQL: two gateways with their own pools count files and single icons (response-cache
// hits included) into exact totals; 304s, HEADs, refusals and other routes are not counted;
// while the database is unreachable files are still served and their downloads arrive once it
// is back; a gateway with `enabled: false` writes nothing; popularity and sort=downloads follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../prisma/database.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { withConfig } from '../helpers/config.ts';
import { ADMIN_URL, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const pgSkip = await postgresUnavailable();
if (pgSkip) console.log(`download counts over HTTP skipped: ${pgSkip}`);

const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
const fastFlush = (config: string) => {
  const edited = config.replace('\n            flushSeconds: 5\n', '\n            flushSeconds: 0.2\n').replace('foldSeconds: 300', 'foldSeconds: 0.3');
  expect(edited).not.toBe(config);
  return edited;
};
const disabled = (config: string) => fastFlush(config).replace(/(- download-counts:\n\s+enabled: )true/, '$1false');

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Icon {
  id: number;
  slug: string;
  file: string;
}

describe.skipIf(pgSkip)('download counts over HTTP', () => {
  let database: TestDatabase;
  const pools: Database[] = [];
  let first: RunningGateway;
  let second: RunningGateway;
  let key: string;
  let icons: Icon[];
  let premium: Icon;

  const openPool = async (url = database.url!) => {
    const db = await openDatabase({ url, poolSize: 4 });
    pools.push(db);
    return db;
  };
  const downloadsOf = async (id: number) => (await database.db.prisma.icon.findUniqueOrThrow({ where: { id }, select: { downloads: true } })).downloads;
  const send = (gateway: RunningGateway, path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, init).then(async (response) => {
      await response.arrayBuffer();
      return response;
    });

  /** Batches of counts a gateway could not write, as its /metrics says. */
  const failedBatches = async (gateway: RunningGateway) => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    return Number(/^icon_gateway_download_batches_total\{outcome="failed"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    const { prisma } = database.db;
    key = (await createApiKey(prisma, { accountName: 'downloader', hourlyLimit: 100_000 })).key;
    const rows = await prisma.icon.findMany({ where: { published: true, premium: false }, orderBy: { id: 'desc' }, take: 4, include: { set: true } });
    icons = rows.map((row) => ({ id: row.id, slug: row.slug, file: `${row.set.prefix}/${row.sourceName}` }));
    const paid = await prisma.icon.findFirstOrThrow({ where: { published: true, premium: true }, include: { set: true } });
    premium = { id: paid.id, slug: paid.slug, file: `${paid.set.prefix}/${paid.sourceName}` };
    first = await withConfig(fastFlush, async (dir) => startGatewayInProcess(await openPool(), { dir, env }));
    second = await withConfig(fastFlush, async (dir) => startGatewayInProcess(await openPool(), { dir, env }));
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await Promise.all(pools.map((db) => db.close()));
    await database?.drop();
  });

  it('counts files and single icons served by two gateways exactly, cache hits included, and nothing else', async () => {
    const [a, b, c] = icons as [Icon, Icon, Icon];
    const before = await Promise.all([a, b, c, premium].map((icon) => downloadsOf(icon.id)));
    const keyed = { headers: { 'x-api-key': key } };
    const counted: Promise<Response>[] = [];
    for (const gateway of [first, second]) {
      for (let i = 0; i < 15; i++) counted.push(send(gateway, `/svg/${a.file}.svg${i % 3 ? '' : `?color=red&i=${i}`}`));
      for (let i = 0; i < 5; i++) counted.push(send(gateway, `/png/${a.file}.png?size=32`));
      for (let i = 0; i < 12; i++) counted.push(send(gateway, `/icons/${b.slug}`, keyed));
      for (let i = 0; i < 8; i++) counted.push(send(gateway, `/icons/${b.id}`, keyed));
    }
    const responses = await Promise.all(counted);
    expect(responses.map((response) => response.status)).toEqual(counted.map(() => 200));
    expect(responses.some((response) => response.headers.get('x-cache') === 'HIT')).toBe(true);

    // Not downloads: HEAD, a revalidation answered 304, a premium file refused, a list, an unknown icon.
    const etag = (await send(first, `/svg/${c.file}.svg`)).headers.get('etag')!;
    const notCounted = [
      await send(first, `/svg/${c.file}.svg`, { method: 'HEAD' }),
      await send(first, `/svg/${c.file}.svg`, { headers: { 'if-none-match': etag } }),
      await send(second, `/icons/${c.slug}`, { ...keyed, method: 'HEAD' }),
      await send(second, `/svg/${premium.file}.svg`),
      await send(second, `/icons/${premium.slug}`, keyed),
      await send(second, `/icons?per_page=3`, keyed),
      await send(second, '/icons/no-such-icon-anywhere', keyed),
    ];
    expect(notCounted.map((response) => response.status)).toEqual([200, 304, 200, 403, 403, 200, 404]);

    await eventually(async () => (await downloadsOf(a.id)) === before[0]! + 40 && (await downloadsOf(b.id)) === before[1]! + 40);
    // Nothing is added twice: one more download through each gateway goes in a later flush, and
    // once both have arrived, a batch resent by either would have been applied too.
    await send(first, `/svg/${c.file}.svg`);
    await send(second, `/svg/${c.file}.svg`);
    await eventually(async () => (await downloadsOf(c.id)) >= before[2]! + 3); // and the GET that gave the ETag
    expect(await Promise.all([a, b, c, premium].map((icon) => downloadsOf(icon.id)))).toEqual([before[0]! + 40, before[1]! + 40, before[2]! + 3, before[3]!]);
  });

  it('orders sort=downloads and popular by what was counted', async () => {
    const [a, b] = icons as [Icon, Icon];
    const page = await (await fetch(`${first.url}/icons?sort=downloads&per_page=2`, { headers: { 'x-api-key': key } })).json();
    expect((page as { data: { id: number; downloads: number }[] }).data.map((icon) => icon.id).sort()).toEqual([a.id, b.id].sort());
    const top = (await (await fetch(`${first.url}/icons?per_page=1&sort=popular`, { headers: { 'x-api-key': key } })).json()) as { data: { id: number }[] };
    const [best] = await database.db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM icons WHERE published ORDER BY popularity DESC, id ASC LIMIT 1');
    expect(top.data[0]!.id).toBe(best!.id);
    const [row] = await database.db.prisma.$queryRawUnsafe<{ recent: number; breadth: number; popularity: number }[]>(
      'SELECT recent_downloads AS recent, concept_breadth AS breadth, popularity FROM icons WHERE id = $1',
      a.id,
    );
    expect(row!.recent).toBe(40);
    expect(row!.popularity).toBeCloseTo(Math.log10(1 + row!.breadth + 40), 4);
  });

  it('serves files while the database is unreachable and counts their downloads once it is back', async () => {
    const icon = icons[3]!;
    const admin = new URL(ADMIN_URL);
    const proxy = await new TcpProxy(admin.hostname, Number(admin.port || 5432)).start();
    const url = new URL(database.url!);
    url.host = `127.0.0.1:${proxy.port}`;
    const faulty = await withConfig(fastFlush, async (dir) => startGatewayInProcess(await openPool(url.toString()), { dir, env }));
    try {
      const before = await downloadsOf(icon.id);
      expect((await send(faulty, `/svg/${icon.file}.svg`)).status).toBe(200); // its data is now kept (cacheSeconds)
      await eventually(async () => (await downloadsOf(icon.id)) === before + 1);
      const failedBatchesBefore = await failedBatches(faulty);
      await proxy.stop();
      const during = await Promise.all(Array.from({ length: 25 }, () => send(faulty, `/svg/${icon.file}.svg`)));
      expect(during.map((response) => response.status)).toEqual(during.map(() => 200));
      // The counts outlive a flush that failed while the database was away.
      await eventually(async () => (await failedBatches(faulty)) > failedBatchesBefore);
      await proxy.start();
      await eventually(async () => (await downloadsOf(icon.id)) >= before + 26, 15_000);
      // One more download goes in a later flush: once it has arrived, a resent batch would have too.
      expect((await send(faulty, `/svg/${icon.file}.svg`)).status).toBe(200);
      await eventually(async () => (await downloadsOf(icon.id)) >= before + 27);
      expect(await downloadsOf(icon.id)).toBe(before + 27);
    } finally {
      await faulty.close();
      await proxy.stop();
    }
  });

  it('writes nothing from a gateway with enabled: false, and the last counts of a closing gateway', async () => {
    const icon = icons[2]!;
    const before = await downloadsOf(icon.id);
    const off = await withConfig(disabled, async (dir) => startGatewayInProcess(await openPool(), { dir, env }));
    for (let i = 0; i < 5; i++) expect((await send(off, `/svg/${icon.file}.svg`)).status).toBe(200);
    await off.close();
    expect(await downloadsOf(icon.id)).toBe(before);
    // A closing gateway sends what it counted and folds it, without waiting for its next flush or fold.
    const slow = await withConfig((config) => config.replace('\n            flushSeconds: 5\n', '\n            flushSeconds: 3600\n').replace('foldSeconds: 300', 'foldSeconds: 3600'), async (dir) => startGatewayInProcess(await openPool(), { dir, env }));
    for (let i = 0; i < 3; i++) expect((await send(slow, `/svg/${icon.file}.svg`)).status).toBe(200);
    expect(await downloadsOf(icon.id)).toBe(before);
    await slow.close();
    expect(await downloadsOf(icon.id)).toBe(before + 3);
  });
});
