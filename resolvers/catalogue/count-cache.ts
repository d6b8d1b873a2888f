// Totals of lists and searches, kept per database for a short time. Every page reports its
// total (meta.total), and counting the matches is the slow part of a page on a big catalogue:
// 126 ms for all 380,909 icons, 150 to 200 ms for a word most icons have, while the page itself
// takes a few. A total does not depend on the page, its size or the sort, so a client paging
// through a result pays the count once per COUNT_TTL_MS instead of once per page. Keys are
// SHA-256 digests of the count statements (text and values): a search's statement can be
// hundreds of kilobytes, and the entries must stay small.
//
// A total is only ever served with a page of the same catalogue: the count statement and the
// page statement each read `catalogue_state.version` in the same statement (one snapshot), and
// the importer increments it in every set's transaction. A total counted before or during an
// import is recounted by the first page that sees the new version, instead of being served
// beside rows it does not count (pages with icons and a total of 0 for up to 30 s after an
// import, before). The time-to-live only bounds memory now.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Prisma, type PrismaClient } from '../../prisma/generated/client.ts';
import type { IdPage } from './filters.ts';

export const COUNT_TTL_MS = 30_000;
const MAX_COUNTS = 10_000;
/** Reads of a page and its total until they agree on the version; only imports committing between them make a second one. */
const MAX_READS = 4;

const CATALOGUE_VERSION = Prisma.sql`(SELECT version FROM catalogue_state WHERE id = 1)`;

interface Counted {
  total: number;
  version: bigint;
}

interface VersionedPage {
  ids: number[];
  version: bigint;
}

/** One cache per database client, so that two databases in one process never share totals. */
const perDatabase = new WeakMap<PrismaClient, LRUCache<string, Counted, Prisma.Sql>>();

function cacheOf(prisma: PrismaClient): LRUCache<string, Counted, Prisma.Sql> {
  let cache = perDatabase.get(prisma);
  if (!cache) {
    cache = new LRUCache<string, Counted, Prisma.Sql>({
      max: MAX_COUNTS,
      ttl: COUNT_TTL_MS,
      // Concurrent requests for one total share one statement.
      fetchMethod: (_key, _stale, { context }) => countOf(prisma, context),
    });
    perDatabase.set(prisma, cache);
  }
  return cache;
}

/** Runs a statement that returns one row `{ total }`, with the catalogue version it counted. */
async function countOf(prisma: PrismaClient, statement: Prisma.Sql): Promise<Counted> {
  const [row] = await prisma.$queryRaw<{ total: bigint | number | null; version: bigint | number | null }[]>(
    Prisma.sql`SELECT counted.total, ${CATALOGUE_VERSION} AS version FROM (${statement}) counted`,
  );
  return { total: Number(row?.total ?? 0), version: BigInt(row?.version ?? 0) };
}

/** Runs a statement that returns rows `{ id }` in order, with the catalogue version it read (also when it finds none). */
async function readPage(prisma: PrismaClient, statement: Prisma.Sql): Promise<VersionedPage> {
  const [row] = await prisma.$queryRaw<{ ids: (number | bigint)[] | null; version: bigint | number | null }[]>(
    Prisma.sql`SELECT ${CATALOGUE_VERSION} AS version, ARRAY(${statement}) AS ids`,
  );
  return { ids: (row?.ids ?? []).map(Number), version: BigInt(row?.version ?? 0) };
}

function keyOf(statement: Prisma.Sql): string {
  return createHash('sha256').update(statement.sql).update('\u0000').update(JSON.stringify(statement.values)).digest('base64url');
}

/**
 * A page of ids (`page`: rows `{ id }`) and its total (`count`: one row `{ total }`), side by
 * side; the total from memory when it was counted recently at the page's catalogue version.
 */
export async function pageWithTotal(prisma: PrismaClient, page: Prisma.Sql, count: Prisma.Sql): Promise<IdPage> {
  const cache = cacheOf(prisma);
  const key = keyOf(count);
  const total = async (forceRefresh: boolean) => (await cache.fetch(key, { context: count, forceRefresh })) ?? countOf(prisma, count);
  let [read, counted] = await Promise.all([readPage(prisma, page), total(false)]);
  for (let reads = 1; read.version !== counted.version && reads < MAX_READS; reads++) {
    // Whichever is older is read again: a total from before an import, or a page read just before one committed.
    if (counted.version < read.version) counted = await total(true);
    else read = await readPage(prisma, page);
  }
  return { ids: read.ids, total: counted.total };
}
