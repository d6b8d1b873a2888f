// Totals of lists and searches, kept per database for a short time. Every page reports its
// total (meta.total), and counting the matches is the slow part of a page on a big catalogue:
// 126 ms for all 380,909 icons, 150 to 200 ms for a word most icons have, while the page itself
// takes a few. A total does not depend on the page, its size or the sort, so a client paging
// through a result pays the count once per COUNT_TTL_MS instead of once per page. Keys are
// SHA-256 digests of the count statements (text and values): a search's statement can be
// hundreds of kilobytes, and the entries must stay small.
//
// One statement reads a page and counts its total (issue 12: one plan, one round trip, one
// snapshot); when the total is in memory, the statement reads only the page.
//
// A total is only ever served with a page of the same catalogue: every statement reads
// `catalogue_state.version` beside its rows (one snapshot), and the importer increments it in
// every set's transaction. A total counted before or during an import is recounted by the
// first page that sees the new version, instead of being served beside rows it does not count
// (pages with icons and a total of 0 for up to 30 s after an import, before). So the
// time-to-live is long: it only bounds how long a change made by hand in SQL, which does not
// move the version, can go uncounted. Counts are shared by every query that counts the same
// thing (typos corrected to one word, every page size and sort), and a word that matches tens
// of thousands of icons is costly to count however the query reached it. The statements also report
// `catalogue_state.search_data_version`, which tells a search whether its vocabulary is current.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Prisma, type PrismaClient } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import type { IdPage } from './filters.ts';

export const COUNT_TTL_MS = 10 * 60_000;
const MAX_COUNTS = 10_000;

const VERSIONS = Prisma.sql`(SELECT version FROM catalogue_state WHERE id = 1) AS version,
  (SELECT search_data_version FROM catalogue_state WHERE id = 1) AS search_version`;

/** A total and the catalogue version it was counted at. */
export interface Counted {
  total: number;
  version: number;
}

export interface VersionedIdPage extends IdPage {
  /** `catalogue_state.version` and `search_data_version` when the page was read. */
  version: number;
  searchDataVersion: number;
}

interface PageRow {
  version: number | bigint | string | null;
  search_version: number | bigint | string | null;
  ids: (number | bigint | string)[] | null;
  total?: number | bigint | string | null;
}

/** What reads a page: the reads layer, or (for callers not moved to it yet) a Prisma client. */
export type PageSource = Reads | PrismaClient;

/** One cache per database, so that two databases in one process never share totals. */
const perDatabase = new WeakMap<PageSource, LRUCache<string, Counted>>();

function cacheOf(source: PageSource): LRUCache<string, Counted> {
  let cache = perDatabase.get(source);
  if (!cache) {
    cache = new LRUCache<string, Counted>({ max: MAX_COUNTS, ttl: COUNT_TTL_MS });
    perDatabase.set(source, cache);
  }
  return cache;
}

/** How a page is read. */
export interface PageOptions {
  /** How its statement is planned: for its values, or once for all (ReadOptions.genericPlan). */
  genericPlan?: boolean | undefined;
  /**
   * Its first row's place in the whole result (the statement's offset), when the page starts at one
   * (not after a cursor). A page starting at or past a total already known is empty: then only the
   * versions are read. Ranking every match to find no row past the last took 1.3 s for `icon` and
   * 1.7 s for `padding` on the full catalogue, and the page after the last is what a client paging
   * through a result asks for last.
   */
  offset?: number | undefined;
}

function rowsOf(source: PageSource, name: string, statement: Prisma.Sql, { genericPlan }: PageOptions): Promise<PageRow[]> {
  return 'rows' in source ? source.rows<PageRow>(name, statement, genericPlan ? { genericPlan } : { planForValues: true }) : source.$queryRaw<PageRow[]>(statement);
}

/** A row read with VERSIONS as numbers; no ids and a total of 0 where the statement read none. */
function pageOfRow(row: PageRow | undefined) {
  return {
    ids: (row?.ids ?? []).map(Number),
    version: Number(row?.version ?? 0),
    searchDataVersion: Number(row?.search_version ?? 0),
    total: Number(row?.total ?? 0),
  };
}

/** The versions alone, for a page known to be empty. */
async function readVersions(source: PageSource, name: string) {
  const statement = Prisma.sql`SELECT ${VERSIONS}`;
  const [row] = 'rows' in source ? await source.rows<PageRow>(name, statement) : await source.$queryRaw<PageRow[]>(statement);
  return pageOfRow(row);
}

/**
 * A page statement (rows `{ id }` in order), or one built around the total (an SQL expression:
 * the kept total as a value, or the count of the same statement), which may choose how to read
 * the page by it.
 */
export type PageSql = Prisma.Sql | ((total: Prisma.Sql) => Prisma.Sql);

/** Runs a page statement, with its total counted (`count`: one row `{ total }`) or kept. */
async function read(source: PageSource, name: string, page: PageSql, total: { count: Prisma.Sql } | { kept: number }, options: PageOptions) {
  const pageOf = (totalSql: Prisma.Sql) => (typeof page === 'function' ? page(totalSql) : page);
  const statement =
    'count' in total
      ? Prisma.sql`SELECT ${VERSIONS}, ARRAY(${pageOf(Prisma.sql`counted.total`)}) AS ids, counted.total AS total FROM (${total.count}) counted`
      : Prisma.sql`SELECT ${VERSIONS}, ARRAY(${pageOf(Prisma.sql`${total.kept}::bigint`)}) AS ids`;
  const [row] = await rowsOf(source, name, statement, options);
  return pageOfRow(row);
}

function keyOf(statement: Prisma.Sql): string {
  return createHash('sha256').update(statement.sql).update('\u0000').update(JSON.stringify(statement.values)).digest('base64url');
}

/**
 * A page of ids (`page`: rows `{ id }`) and its total (`count`: one row `{ total }`), read in
 * one statement; the total from memory when it was counted recently at the page's catalogue
 * version, or is `known` (counted elsewhere) at that version. `name` names the statements (reads.ts).
 */
export async function pageWithTotal(source: PageSource, page: PageSql, count: Prisma.Sql, name = 'list', known?: Counted, options: PageOptions = {}): Promise<VersionedIdPage> {
  const cache = cacheOf(source);
  const key = keyOf(count);
  const counted = cache.get(key) ?? known;
  if (counted) {
    const empty = options.offset !== undefined && options.offset >= counted.total;
    const { ids, version, searchDataVersion } = empty
      ? await readVersions(source, `${name}_versions`)
      : await read(source, `${name}_page`, page, { kept: counted.total }, options);
    if (version === counted.version) return { ids, total: counted.total, version, searchDataVersion };
    // A total of another version (an import committed between): read the page again with its count.
    if (cache.get(key) === counted) cache.delete(key);
  }
  const { ids, version, searchDataVersion, total } = await read(source, `${name}_counted`, page, { count }, options);
  const held = cache.get(key);
  if (!held || held.version <= version) cache.set(key, { total, version });
  return { ids, total, version, searchDataVersion };
}
