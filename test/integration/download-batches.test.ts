// Downloads in the database (prisma/download-batches.ts and the icon_downloads migration), on
// PGlite and PostgreSQL: batches add exactly once, to the day rows first and to the icons when
// folded; concurrent batches and folds from separate pools add up exactly; the recent window
// expires exactly once even when every gateway expires at once; popularity follows its
// documented formula; and the concept PostgreSQL generates is the one similar icons use.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../prisma/database.ts';
import { applyDownloadBatch, expireRecentDownloads, foldDownloads, type DownloadBatch } from '../../prisma/download-batches.ts';
import { refreshConceptBreadth } from '../../prisma/import/refresh-search.ts';
import { conceptOf } from '../../resolvers/catalogue/similar.ts';
import { CATALOGUE_KINDS, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

const pgSkip = await postgresUnavailable();

interface Counts {
  downloads: number;
  recent: number;
  breadth: number;
  popularity: number;
}

const batch = (parts: Partial<Omit<DownloadBatch, 'id'>>): DownloadBatch => ({ id: randomUUID(), ids: [], slugs: [], files: [], ...parts });

describe.each(CATALOGUE_KINDS)('download batches on %s', (kind) => {
  const skip = kind === 'postgres' && Boolean(pgSkip);
  let database: TestDatabase;
  let icons: { id: number; slug: string; sourceName: string; prefix: string }[];

  async function counts(id: number): Promise<Counts> {
    const [row] = await database.db.prisma.$queryRawUnsafe<Counts[]>(
      'SELECT downloads, recent_downloads AS recent, concept_breadth AS breadth, popularity FROM icons WHERE id = $1',
      id,
    );
    return row!;
  }
  const daysOf = async (id: number) =>
    database.db.prisma.$queryRawUnsafe<{ age: number; downloads: number }[]>(
      `SELECT ((now() AT TIME ZONE 'UTC')::date - day)::int AS age, downloads FROM icon_download_days WHERE icon_id = $1 ORDER BY day`,
      id,
    );

  beforeAll(async () => {
    if (skip) return;
    database = await createCatalogueCopy(kind);
    const rows = await database.db.prisma.icon.findMany({ where: { published: true }, orderBy: { id: 'asc' }, take: 4, select: { id: true, slug: true, sourceName: true, set: { select: { prefix: true } } } });
    icons = rows.map((row) => ({ id: row.id, slug: row.slug, sourceName: row.sourceName, prefix: row.set.prefix }));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it.skipIf(skip)('starts every icon at 0 downloads, with popularity from the concept prior alone', async () => {
    const rows = await database.db.prisma.$queryRawUnsafe<{ nonzero: number; wrong: number; icons: number }[]>(
      `SELECT count(*) FILTER (WHERE downloads <> 0 OR recent_downloads <> 0)::int AS nonzero,
              count(*) FILTER (WHERE popularity <> round(log((1 + concept_breadth)::numeric), 4)::float8)::int AS wrong,
              count(*)::int AS icons
       FROM icons`,
    );
    expect(rows[0]).toEqual({ nonzero: 0, wrong: 0, icons: expect.any(Number) });
    expect(rows[0]!.icons).toBeGreaterThan(100);
  });

  it.skipIf(skip)('adds a batch by id, slug and file name to today, once, and to the icons when folded, once', async () => {
    const [a, b] = icons;
    const before = [await counts(a!.id), await counts(b!.id)];
    const sent = batch({
      ids: [{ id: a!.id, count: 3 }],
      slugs: [{ slug: a!.slug, count: 2 }, { slug: 'no-such-icon-slug', count: 9 }],
      files: [{ prefix: b!.prefix, name: b!.sourceName, count: 4 }, { prefix: 'no-such-set', name: b!.sourceName, count: 9 }],
    });
    expect(await applyDownloadBatch(database.db.prisma, sent)).toBe(true);
    // Resent (its outcome was unknown to the gateway): nothing more.
    expect(await applyDownloadBatch(database.db.prisma, sent)).toBe(false);
    expect([await counts(a!.id), await counts(b!.id)]).toEqual(before); // not folded yet
    expect(await daysOf(a!.id)).toEqual([{ age: 0, downloads: 5 }]);
    expect(await foldDownloads(database.db.prisma)).toBe(2);
    expect(await foldDownloads(database.db.prisma)).toBe(0);
    const after = [await counts(a!.id), await counts(b!.id)];
    expect(after[0]).toMatchObject({ downloads: before[0]!.downloads + 5, recent: before[0]!.recent + 5 });
    expect(after[1]).toMatchObject({ downloads: before[1]!.downloads + 4, recent: before[1]!.recent + 4 });
    for (const row of after) expect(row.popularity).toBeCloseTo(Math.log10(1 + row.breadth + row.recent), 4);
    expect(after[0]!.popularity).toBeGreaterThan(before[0]!.popularity);
    expect(await daysOf(a!.id)).toEqual([{ age: 0, downloads: after[0]!.recent }]);
  });

  it.skipIf(skip)('adds concurrent batches from separate connections exactly (a deadlocked batch is resent)', async () => {
    const others: Database[] = kind === 'postgres' ? await Promise.all([0, 1].map(() => openDatabase({ url: database.url!, poolSize: 4 }))) : [database.db];
    try {
      const chosen = icons.slice(0, 3);
      const before = await Promise.all(chosen.map((icon) => counts(icon.id)));
      // 24 batches, each naming the three icons in a different order and by different names.
      const expected = new Map(chosen.map((icon) => [icon.id, 0]));
      const batches = Array.from({ length: 24 }, (_, n) => {
        const order = n % 2 ? [...chosen].reverse() : chosen;
        order.forEach((icon, i) => {
          expected.set(icon.id, expected.get(icon.id)! + i + 1);
        });
        return batch(
          n % 3 === 0
            ? { ids: order.map((icon, i) => ({ id: icon.id, count: i + 1 })) }
            : { files: order.map((icon, i) => ({ prefix: icon.prefix, name: icon.sourceName, count: i + 1 })) },
        );
      });
      // Folds run while the batches arrive, from both pools, as gateways do.
      const retried = async (work: () => Promise<unknown>) => {
        for (;;) {
          try {
            return await work();
          } catch (error) {
            if (!/deadlock/i.test(String((error as Error).message))) throw error;
          }
        }
      };
      await Promise.all([
        ...batches.map((sent, n) => retried(() => applyDownloadBatch(others[n % others.length]!.prisma, sent))),
        ...others.flatMap((db) => [0, 1, 2].map(() => retried(() => foldDownloads(db.prisma)))),
      ]);
      await foldDownloads(database.db.prisma);
      const after = await Promise.all(chosen.map((icon) => counts(icon.id)));
      chosen.forEach((icon, i) => {
        expect(after[i]!.downloads - before[i]!.downloads).toBe(expected.get(icon.id));
        expect(after[i]!.recent - before[i]!.recent).toBe(expected.get(icon.id));
      });
    } finally {
      if (kind === 'postgres') await Promise.all(others.map((db) => db.close()));
    }
  });

  it.skipIf(skip)('folds and expires a backlog larger than one statement takes, in several statements, exactly', async () => {
    const { prisma } = database.db;
    const chosen = icons.slice(0, 3);
    const before = await Promise.all(chosen.map((icon) => counts(icon.id)));
    // Seven unfolded days (three of them past the window) over three icons; statements of two day rows.
    const ages = [[45, 44, 0], [43, 1], [2, 0]] as const;
    for (const [index, icon] of chosen.entries()) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO icon_download_days (icon_id, day, downloads) SELECT $1, (now() AT TIME ZONE 'UTC')::date - age, 10 + age FROM unnest($2::int[]) AS age
         ON CONFLICT (icon_id, day) DO UPDATE SET downloads = icon_download_days.downloads + excluded.downloads`,
        icon.id,
        [...ages[index]!],
      );
    }
    const unfolded = async () =>
      (await prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM icon_download_days WHERE folded < downloads'))[0]!.n;
    expect(await unfolded()).toBe(7);
    expect(await foldDownloads(prisma, 2)).toBeGreaterThanOrEqual(3);
    expect(await unfolded()).toBe(0);
    const folded = await Promise.all(chosen.map((icon) => counts(icon.id)));
    chosen.forEach((_, index) => {
      const added = ages[index]!.reduce((sum: number, age) => sum + 10 + age, 0);
      expect(folded[index]!.downloads - before[index]!.downloads).toBe(added);
      expect(folded[index]!.recent - before[index]!.recent).toBe(added);
    });
    expect(await expireRecentDownloads(prisma, 30, 2)).toBe(3);
    const expired = await Promise.all(chosen.map((icon) => counts(icon.id)));
    expect(expired.map((row, index) => folded[index]!.recent - row.recent)).toEqual([10 + 45 + 10 + 44, 10 + 43, 0]);
    expect(expired.map((row) => row.downloads)).toEqual(folded.map((row) => row.downloads));
  });

  it.skipIf(skip)('ends a fold while gateways keep adding to days it has passed, and folds what they added next time', async () => {
    const { prisma } = database.db;
    const [hotA, hotB, behind] = icons;
    const chosen = [hotA!, hotB!, behind!];
    const before = await Promise.all(chosen.map((icon) => counts(icon.id)));
    // A backlog past the two lowest ids: three old days of the third icon.
    for (const icon of [behind!]) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO icon_download_days (icon_id, day, downloads) SELECT $1, (now() AT TIME ZONE 'UTC')::date - age, 1 FROM unnest(ARRAY[3, 2, 1]) AS age
         ON CONFLICT (icon_id, day) DO UPDATE SET downloads = icon_download_days.downloads + excluded.downloads`,
        icon.id,
      );
    }
    // Meanwhile a gateway keeps adding to today's rows of the two lowest ids, which sort before
    // the backlog: with statements of two rows, a fold that started over from the first key at
    // each statement found those two unfolded every time and folded until the additions stopped.
    const BUDGET = 400;
    let added = 0;
    let folding = true;
    const adding = (async () => {
      while (folding && added < BUDGET) {
        await applyDownloadBatch(prisma, batch({ ids: [{ id: hotA!.id, count: 1 }, { id: hotB!.id, count: 1 }] }));
        added++;
      }
    })();
    await foldDownloads(prisma, 2);
    folding = false;
    await adding;
    expect(added).toBeLessThan(BUDGET);
    await foldDownloads(prisma, 2);
    const after = await Promise.all(chosen.map((icon) => counts(icon.id)));
    expect(after.map((row, index) => row.downloads - before[index]!.downloads)).toEqual([added, added, 3]);
  });

  it('refuses statements of no rows, which would never end', async () => {
    await expect(foldDownloads({} as never, 0)).rejects.toThrow(/rowsPerStatement must be a whole number >= 1/);
    await expect(expireRecentDownloads({} as never, 30, 0)).rejects.toThrow(/rowsPerStatement/);
  });

  it.skipIf(skip)('expires the days that left the window once, even when gateways expire at the same time', async () => {
    const icon = icons[3]!;
    const { prisma } = database.db;
    // Folded downloads 31, 30 and 29 days ago, and today (recent_downloads kept equal to their sum).
    await prisma.$executeRawUnsafe(
      `INSERT INTO icon_download_days (icon_id, day, downloads, folded)
       SELECT $1, (now() AT TIME ZONE 'UTC')::date - age, n, n FROM unnest(ARRAY[31, 30, 29, 0], ARRAY[7, 5, 3, 2]) AS d(age, n)`,
      icon.id,
    );
    await prisma.$executeRawUnsafe('UPDATE icons SET recent_downloads = recent_downloads + 17 WHERE id = $1', icon.id);
    const before = await counts(icon.id);
    const expired = await Promise.all([expireRecentDownloads(prisma, 30), expireRecentDownloads(prisma, 30), expireRecentDownloads(prisma, 30)]);
    expect(expired.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2);
    const after = await counts(icon.id);
    expect(after.recent).toBe(before.recent - 12); // the 31- and 30-day-old rows: the window is today and the 29 days before
    expect(after.downloads).toBe(before.downloads); // the all-time total keeps them
    expect(await daysOf(icon.id)).toEqual([
      { age: 29, downloads: 3 },
      { age: 0, downloads: 2 },
    ]);
    expect(after.popularity).toBeCloseTo(Math.log10(1 + after.breadth + after.recent), 4);
    // A day not folded yet stays until it is: its downloads reach the all-time total first.
    await prisma.$executeRawUnsafe(`INSERT INTO icon_download_days (icon_id, day, downloads) VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 40, 4)`, icon.id);
    expect(await expireRecentDownloads(prisma, 30)).toBe(0);
    expect(await foldDownloads(prisma)).toBe(1);
    const folded = await counts(icon.id);
    expect([folded.downloads, folded.recent]).toEqual([after.downloads + 4, after.recent + 4]);
    expect(await expireRecentDownloads(prisma, 30)).toBe(1);
    expect(await counts(icon.id)).toEqual({ ...folded, recent: after.recent, popularity: after.popularity });
  });

  it.skipIf(skip)("generates the concept similar icons use, and counts the sets that draw it as the prior", async () => {
    const rows = await database.db.prisma.$queryRawUnsafe<{ name: string; concept: string; set_id: number; published: boolean; concept_breadth: number }[]>(
      'SELECT name, concept, set_id, published, concept_breadth FROM icons',
    );
    const differing = rows.filter((row) => row.concept !== conceptOf(row.name).sort().join(' ')).map((row) => `${row.name}: ${row.concept}`);
    expect(differing).toEqual([]);
    const sets = new Map<string, Set<number>>();
    for (const row of rows.filter((r) => r.published)) sets.set(row.concept, (sets.get(row.concept) ?? new Set()).add(row.set_id));
    const wrong = rows.filter((row) => row.published && row.concept_breadth !== sets.get(row.concept)!.size).map((row) => row.name);
    expect(wrong).toEqual([]);
    expect(Math.max(...[...sets.values()].map((s) => s.size))).toBeGreaterThan(1);
    // A refresh with nothing changed writes nothing.
    expect(await refreshConceptBreadth(database.db.prisma)).toBe(0);
  });

  // Every fold rewrites the rows of the icons it moves, and their search documents, so it adds
  // their entries to every GIN index's pending list, which every search reads in full (the
  // migration *_gin_pending_list_limit). The lists stay within 64 kB (8 pages) however many icons
  // a fold moves; at PostgreSQL's default of 4 MB they held about 415 pages each.
  it.skipIf(skip)("keeps every GIN index's pending list within 64 kB through a fold of thousands of icons", async () => {
    const { prisma } = database.db;
    const ofEveryGinIndex = (columns: string) =>
      `SELECT c.relname AS name, ${columns} FROM pg_class c JOIN pg_am a ON a.oid = c.relam
       WHERE a.amname = 'gin' AND c.relnamespace = 'public'::regnamespace ORDER BY 1`;
    const gin = await prisma.$queryRawUnsafe<{ name: string; options: string[] | null }[]>(ofEveryGinIndex('c.reloptions AS options'));
    expect(gin.map(({ name }) => name)).toContain('icon_search_documents_search_idx');
    for (const { options } of gin) expect(options).toContain('gin_pending_list_limit=64');
    // The pending lists' sizes need pgstattuple, a contrib module of PostgreSQL's, not of PGlite's.
    if (kind !== 'postgres') return;
    const moved = await prisma.icon.findMany({ where: { published: true }, orderBy: { id: 'desc' }, take: 3_000, select: { id: true } });
    expect(moved).toHaveLength(3_000);
    expect(await applyDownloadBatch(prisma, batch({ ids: moved.map(({ id }) => ({ id, count: 1 })) }))).toBe(true);
    expect(await foldDownloads(prisma)).toBe(3_000);
    await prisma.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    const pending = await prisma.$queryRawUnsafe<{ name: string; pages: number }[]>(ofEveryGinIndex('(pgstatginindex(c.oid)).pending_pages AS pages'));
    expect(pending).toHaveLength(gin.length);
    expect(pending.filter(({ pages }) => pages > 8)).toEqual([]);
  });
});
