// Paging through a list or a search counts its matches once, not once per page: the total does
// not depend on the page, its size or the sort. Another filter or query is counted on its own,
// and two databases in one process never share totals.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIconIds } from '../../resolvers/catalogue/list-icons.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { refreshSearchData, refreshSearchTermTotals } from '../../prisma/import/refresh-search.ts';
import type { Reads } from '../../prisma/reads.ts';
import type { IdPage } from '../../resolvers/catalogue/filters.ts';
import { searchIconIds } from '../../resolvers/catalogue/search/index.ts';
import { createCatalogueCopy, createPGliteDatabase, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

const pgSkip = await postgresUnavailable();
let catalogue: TestDatabase;
let empty: TestDatabase;
let counts = 0;

beforeAll(async () => {
  catalogue = await createCatalogueCopy('pglite', { onQuery: (sql) => void (/AS total\b/.test(sql) && counts++) });
  empty = await createPGliteDatabase();
  const { applyMigrations } = await import('../../prisma/engine/migrations.ts');
  await applyMigrations(empty.db);
});
afterAll(async () => {
  await catalogue?.drop();
  await empty?.drop();
});

describe('totals of lists and searches', () => {
  it('counts a list once while a client pages through it in any order and size', async () => {
    const { prisma, reads } = catalogue.db;
    const before = counts;
    const pages = [
      await listIconIds(reads, { filter: { style: 'bold' }, sort: 'popular', page: 1, perPage: 24 }),
      await listIconIds(reads, { filter: { style: 'bold' }, sort: 'popular', page: 2, perPage: 24 }),
      await listIconIds(reads, { filter: { style: 'bold' }, sort: 'az', page: 7, perPage: 100 }),
    ];
    expect(counts - before).toBe(1);
    const other = await listIconIds(reads, { filter: { style: 'linear' }, sort: 'popular', page: 1, perPage: 24 });
    expect(counts - before).toBe(2);
    expect(new Set(pages.map((page) => page.total)).size).toBe(1);
    expect(pages[0]!.total).toBe(await prisma.icon.count({ where: { published: true, style: 'bold' } }));
    expect(other.total).toBe(await prisma.icon.count({ where: { published: true, style: 'linear' } }));
  });

  it('counts a search once per query and filter', async () => {
    const { reads } = catalogue.db;
    const before = counts;
    const first = await searchIconIds(reads, { q: 'arrow left', page: 1, perPage: 24 });
    const second = await searchIconIds(reads, { q: 'arrow left', page: 2, perPage: 10, sort: 'newest' });
    expect(counts - before).toBe(1);
    expect(second.total).toBe(first.total);
    expect(first.total).toBeGreaterThan(24);
    await searchIconIds(reads, { q: 'arrow left', filter: { style: 'bold' }, page: 1, perPage: 24 });
    await searchIconIds(reads, { q: 'arrow right', page: 1, perPage: 24 });
    expect(counts - before).toBe(3);
  });

  it('uses the totals the refresh kept for common one-word searches only at the catalogue version they were counted at', async () => {
    const copy = await createCatalogueCopy('pglite', { onQuery: (sql) => void (/AS total\b/.test(sql) && counts++) });
    try {
      const { prisma, reads } = copy.db;
      // Kept tokens are prefixes as well as words ('paddin' beside 'padding', on as many icons),
      // and only a word has a misspelling to correct: among equally common tokens take the
      // longest (a word is longer than its own prefixes), so the pick does not depend on row order.
      const kept = (await prisma.searchTermTotal.findMany()).sort((a, b) => b.icons - a.icons || b.token.length - a.token.length || a.token.localeCompare(b.token));
      const [common, other] = kept.filter((row) => row.token.length >= 5);
      expect(other).toBeDefined();
      const countOf = async (token: string) => {
        const [row] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM icons WHERE published AND search @@ (quote_literal(${token}) || ':*')::tsquery`;
        return row!.n;
      };
      const search = (token: string) => searchIconIds(reads, { q: token, page: 1, perPage: 24 });
      let before = counts;
      expect((await search(common!.token)).total).toBe(await countOf(common!.token));
      // A misspelling of it that starts no word is corrected to it alone: its total too.
      const typo = `${common!.token[0]}q${common!.token.slice(1)}`;
      expect((await search(typo)).total).toBe(await countOf(common!.token));
      expect(counts - before).toBe(0);

      // As an import does: a matching icon unpublished and the catalogue version moved, in one transaction.
      const [gone] = await prisma.$queryRaw<{ id: number }[]>`SELECT id FROM icons WHERE published AND search @@ (quote_literal(${common!.token}) || ':*')::tsquery LIMIT 1`;
      await prisma.$transaction([
        prisma.icon.update({ where: { id: gone!.id }, data: { published: false } }),
        prisma.$executeRaw`UPDATE catalogue_state SET version = version + 1 WHERE id = 1`,
      ]);
      before = counts;
      expect((await search(common!.token)).total).toBe(common!.icons - 1);
      expect(counts - before).toBe(1);

      // Once the search data is refreshed, the kept totals are of the new version again.
      await refreshSearchData(prisma);
      // The first search after a refresh finds its vocabulary older than the page and loads the new one.
      await searchIconIds(reads, { q: 'arrow left', page: 1, perPage: 24 });
      before = counts;
      expect((await search(other!.token)).total).toBe(await countOf(other!.token));
      expect(counts - before).toBe(0);
    } finally {
      await copy.drop();
    }
  });

  it.skipIf(Boolean(pgSkip))('two refreshes at once (two importers on one PostgreSQL) both finish, and leave one set of totals', async () => {
    const copy = await createCatalogueCopy('postgres');
    try {
      const { prisma } = copy.db;
      const before = await prisma.searchTermTotal.findMany({ orderBy: { token: 'asc' } });
      const written = await Promise.all([refreshSearchTermTotals(prisma), refreshSearchTermTotals(prisma), refreshSearchTermTotals(prisma)]);
      expect(written).toEqual([before.length, before.length, before.length]);
      expect(await prisma.searchTermTotal.findMany({ orderBy: { token: 'asc' } })).toEqual(before);
    } finally {
      await copy.drop();
    }
  });

  it.skipIf(Boolean(pgSkip))('waits as long as a reader holds the totals, past the 5 s Prisma gives a transaction by default', async () => {
    const copy = await createCatalogueCopy('postgres');
    const reader = new pg.Client({ connectionString: copy.url });
    try {
      await reader.connect();
      await reader.query('BEGIN');
      await reader.query('LOCK TABLE search_term_totals IN SHARE MODE'); // blocks the refresh's EXCLUSIVE lock
      const started = performance.now();
      const refreshed = refreshSearchTermTotals(copy.db.prisma, 100);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await reader.query('COMMIT');
      expect(await refreshed).toBeGreaterThan(0);
      expect(performance.now() - started).toBeGreaterThan(5_500);
    } finally {
      await reader.end();
      await copy.drop();
    }
  });

  it('reads only the versions for a page past the last row of a known total, and counts again once the catalogue changed', async () => {
    const copy = await createCatalogueCopy('pglite');
    try {
      const names: string[] = [];
      const reads: Reads = {
        rows: (name, statement, options) => {
          if (/^(icons|search)_/.test(name)) names.push(name);
          return copy.db.reads.rows(name, statement, options);
        },
      };
      const pastTheLast = async (read: (page: number) => Promise<IdPage>, pageSize: number, kind: string) => {
        const { total } = await read(1);
        const last = Math.ceil(total / pageSize);
        expect(total % pageSize).not.toBe(0);
        names.length = 0;
        expect(await read(last + 1)).toMatchObject({ ids: [], total });
        expect(await read(last + 7)).toMatchObject({ ids: [], total });
        expect(names).toEqual([`${kind}_versions`, `${kind}_versions`]);
        names.length = 0;
        expect((await read(last)).ids).toHaveLength(total % pageSize);
        expect(names).toEqual([`${kind}_page`]);
        return total;
      };
      // Read first, as a serving gateway has it (a search would start reading it, and the copy is dropped at the end).
      await listIndexOf(reads).build();
      const list = (page: number) => listIconIds(reads, { filter: { style: 'bold' }, sort: 'popular', page, perPage: 24 });
      // A phrase whose last word is short: names starting with it match too, so its total is counted by the statement.
      const search = (page: number) => searchIconIds(reads, { q: 'arrow l', page, perPage: 10 });
      const listTotal = await pastTheLast(list, 24, 'icons');
      const searchTotal = await pastTheLast(search, 10, 'search');

      await copy.db.prisma.$executeRaw`UPDATE catalogue_state SET version = version + 1 WHERE id = 1`;
      names.length = 0;
      expect(await list(1_000)).toMatchObject({ ids: [], total: listTotal });
      expect(await search(1_000)).toMatchObject({ ids: [], total: searchTotal });
      expect(names).toEqual(['icons_versions', 'icons_counted', 'search_versions', 'search_counted']);
    } finally {
      await copy.drop();
    }
  });

  it('keeps the totals of each database apart', async () => {
    const request = { sort: 'popular' as const, page: 1, perPage: 24 };
    expect((await listIconIds(catalogue.db.reads, request)).total).toBeGreaterThan(1000);
    expect((await listIconIds(empty.db.reads, request)).total).toBe(0);
  });
});
