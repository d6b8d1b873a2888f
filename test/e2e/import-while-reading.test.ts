// Clients reading through a gateway while an operator imports sets: no response may contradict
// itself (a page with icons and `meta.total: 0`, or fewer in total than on the page), and once
// the import is done fresh responses count the new catalogue, although totals are cached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { applyMigrations } from '../../prisma/engine/migrations.ts';
import { searchIconIds } from '../../resolvers/catalogue/search/index.ts';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startCli } from '../helpers/cli.ts';
import { startGatewayProcess, type RunningGateway } from '../helpers/gateway.ts';

const skip = Boolean(await postgresUnavailable());

interface Page {
  data: unknown[];
  meta: { page: number; per_page: number; total: number; total_pages: number };
}

function runImport(env: Record<string, string>, sets: string[]) {
  return startCli(['import', ...sets.flatMap((set) => ['--set', set])], env).exited;
}

describe.skipIf(skip)('an import while clients read', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let key: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    await applyMigrations(database.db);
    key = (await createApiKey(database.db.prisma, { accountName: 'reader', hourlyLimit: 1_000_000 })).key;
    gateway = await startGatewayProcess({ DATABASE_URL: database.url! });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  async function get(path: string): Promise<{ page: Page; cache: string | null }> {
    const response = await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } });
    expect(response.status, path).toBe(200);
    return { page: (await response.json()) as Page, cache: response.headers.get('x-cache') };
  }

  /**
   * What is wrong with a page, if anything: a full page needs a total of at least the rows up to
   * its end, a page that is not full ends the result (its total is exact), and an empty page
   * lies past the last.
   */
  function contradiction(path: string, { data, meta }: Page): string | undefined {
    const before = (meta.page - 1) * meta.per_page;
    const fits =
      data.length === meta.per_page ? meta.total >= before + data.length : data.length > 0 ? meta.total === before + data.length : meta.total <= before;
    if (!fits) return `${path}: ${data.length} icons on page ${meta.page} but total ${meta.total}`;
    if (meta.total_pages !== Math.ceil(meta.total / meta.per_page)) return `${path}: total_pages ${meta.total_pages} for total ${meta.total}`;
    return undefined;
  }

  it('never serves a page with icons and a smaller total, and counts the new catalogue at once afterwards', async () => {
    // Each reader walks page sizes and pages, never asking for one twice (so every request misses
    // the response cache and reads the database), over one list and one search, whose totals are
    // cached by their statements whatever the page.
    const paths = (perPage: number, sort: string, page = 1) => [
      `/icons?per_page=${perPage}&page=${page}&sort=${sort}`,
      `/search?q=google&per_page=${perPage}&page=${page}&sort=${sort}`,
      `/icons?per_page=${perPage}&page=${page + 1}&sort=${sort}`,
    ];
    const problems: string[] = [];
    let served = 0;
    let withIcons = 0;
    const read = async (path: string) => {
      const { page } = await get(path);
      served++;
      if (page.data.length > 0) withIcons++;
      const problem = contradiction(path, page);
      if (problem) problems.push(problem);
    };
    // Before the import: the catalogue is empty, and that total is cached.
    for (const path of paths(1, 'popular')) await read(path);

    // During the import, and a few rounds after it.
    let roundsLeft = Number.POSITIVE_INFINITY;
    const readers = ['popular', 'newest'].map(async (sort) => {
      for (let round = 0; roundsLeft-- > 0; round++) {
        for (const path of paths(2 + (round % 99), sort, 1 + 2 * Math.floor(round / 99))) await read(path);
      }
    });
    const imported = await runImport({ DATABASE_URL: database.url! }, ['logos', 'mdi']);
    roundsLeft = 10;
    await Promise.all(readers);
    expect(imported.output).toContain('2 imported');
    expect(imported.code).toBe(0);
    expect(withIcons).toBeGreaterThan(0);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(served).toBeGreaterThan(50);

    // Right after the import, fresh responses (never asked before, so not in the response cache)
    // count the whole new catalogue.
    const published = await database.db.prisma.icon.count({ where: { published: true } });
    const list = await get('/icons?per_page=5&sort=az');
    expect(list.cache).toBe('MISS');
    expect(list.page.meta.total).toBe(published);
    const search = await get('/search?q=google&per_page=5&sort=az');
    expect(search.cache).toBe('MISS');
    expect(search.page.meta.total).toBe((await searchIconIds(database.db.reads, { q: 'google', page: 1, perPage: 5 })).total);
    expect(search.page.meta.total).toBeGreaterThan(5);
  });
});
