// Totals of lists and searches, kept per database for a short time. Every page reports its
// total (meta.total), and counting the matches is the slow part of a page on a big catalogue:
// 126 ms for all 380,909 icons, 150 to 200 ms for a word most icons have, while the page itself
// takes a few. A total does not depend on the page, its size or the sort, so a client paging
// through a result pays the count once per COUNT_TTL_MS instead of once per page. The catalogue
// changes only by import, and the REST responses are kept as long, so totals are never staler
// than the pages around them. Keys are SHA-256 digests of the count statements (text and
// values): a search's statement can be hundreds of kilobytes, and the entries must stay small.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Prisma, PrismaClient } from '../../prisma/generated/client.ts';

export const COUNT_TTL_MS = 30_000;
const MAX_COUNTS = 10_000;

/** One cache per database client, so that two databases in one process never share totals. */
const perDatabase = new WeakMap<PrismaClient, LRUCache<string, number, Prisma.Sql>>();

function cacheOf(prisma: PrismaClient): LRUCache<string, number, Prisma.Sql> {
  let cache = perDatabase.get(prisma);
  if (!cache) {
    cache = new LRUCache<string, number, Prisma.Sql>({
      max: MAX_COUNTS,
      ttl: COUNT_TTL_MS,
      // Concurrent requests for one total share one statement.
      fetchMethod: (_key, _stale, { context }) => countOf(prisma, context),
    });
    perDatabase.set(prisma, cache);
  }
  return cache;
}

/** Runs a statement that returns one row `{ total }` (a bigint or an integer). */
async function countOf(prisma: PrismaClient, statement: Prisma.Sql): Promise<number> {
  const [row] = await prisma.$queryRaw<{ total: bigint | number }[]>(statement);
  return Number(row?.total ?? 0);
}

/** The total of `statement` (one row `{ total }`), from memory when it was counted recently. */
export async function cachedCount(prisma: PrismaClient, statement: Prisma.Sql): Promise<number> {
  const key = createHash('sha256').update(statement.sql).update('\u0000').update(JSON.stringify(statement.values)).digest('base64url');
  return (await cacheOf(prisma).fetch(key, { context: statement })) ?? countOf(prisma, statement);
}
