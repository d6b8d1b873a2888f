// The bench's reading of the icons table's wear (bench/table-health.ts): rows rewritten by
// updates (as download folds rewrite them) show as dead rows until a VACUUM, on a real
// PostgreSQL catalogue; PGlite, which keeps no row statistics across restarts, says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTableHealth, type TableHealth } from '../../bench/table-health.ts';
import { openDatabase } from '../../prisma/database.ts';
import { createCatalogueCopy, postgresUnavailable, withCatalogueDataDir, type TestDatabase } from '../helpers/databases.ts';

const skip = Boolean(await postgresUnavailable());

/**
 * Reads until `done` holds. A backend that flushed its statistics less than a second ago keeps
 * the next ones for up to 10 s (PostgreSQL's idle interval), so this waits up to 15 s.
 */
async function healthUntil(url: string, done: (health: TableHealth) => boolean): Promise<TableHealth> {
  for (let attempt = 0; ; attempt++) {
    const health = await readTableHealth({ url });
    if (done(health) || attempt >= 60) return health;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Runs an UPDATE and asks its backend to report its statistics as soon as it is idle, not within 10 s.
 * The update rewrites thousands of rows through the search trigger: beside the rest of the suite it
 * has taken over Prisma's default 5 s for an interactive transaction, hence the longer limit.
 */
async function rewrite(prisma: TestDatabase['db']['prisma'], update: string): Promise<number> {
  return prisma.$transaction(
    async (transaction) => {
      const rows = await transaction.$executeRawUnsafe(update);
      await transaction.$executeRawUnsafe('SELECT pg_stat_force_next_flush()');
      return rows;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

describe.skipIf(skip)('PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('counts rewritten icon rows as dead until a VACUUM, and says when they pass a fifth of the live ones', async () => {
    const url = database.url!;
    const { prisma } = database.db;
    // This copy's dead rows are the test's alone: no autovacuum may clear them meanwhile.
    await prisma.$executeRawUnsafe('ALTER TABLE icons SET (autovacuum_enabled = false)');
    await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icons');
    const clean = await healthUntil(url, (health) => health.dead === 0 && health.live > 0);
    expect(clean.line).toMatch(/^icons table: 0 dead rows beside [\d,]+ live \(autovacuum (on|off), last vacuumed \d{4}-\d\d-\d\dT[\d:]+Z\); search documents: /);
    expect(clean.worn).toBe(false);

    const rewritten = await rewrite(prisma, 'UPDATE icons SET downloads = downloads + 1 WHERE id % 2 = 0');
    const worn = await healthUntil(url, (health) => health.dead > 0);
    expect(worn.dead).toBe(rewritten);
    expect(worn.line).toMatch(new RegExp(`^icons table: ${worn.dead.toLocaleString('en-US')} dead rows beside ${worn.live.toLocaleString('en-US')} live`));
    expect(worn.worn).toBe(worn.dead > worn.live / 5);
    expect(worn.worn).toBe(true);
  });

  it('counts the search documents that popularity changes rewrite, and says when they alone are worn', async () => {
    const url = database.url!;
    const { prisma } = database.db;
    await prisma.$executeRawUnsafe('ALTER TABLE icons SET (autovacuum_enabled = false)');
    await prisma.$executeRawUnsafe('ALTER TABLE icon_search_documents SET (autovacuum_enabled = false)');
    await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icons, icon_search_documents');
    const clean = await healthUntil(url, (health) => health.documents.dead === 0 && health.documents.live > 0 && health.dead === 0);
    expect(clean.line).toMatch(new RegExp(`; search documents: 0 dead beside ${clean.documents.live.toLocaleString('en-US')} live \\(last vacuumed [\\dT:Z-]+\\)$`));
    // A fold moves recent_downloads, and popularity with it: the trigger rewrites each document.
    const rewritten = await rewrite(prisma, 'UPDATE icons SET recent_downloads = recent_downloads + 1000 WHERE published AND id % 2 = 0');
    await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icons');
    const worn = await healthUntil(url, (health) => health.documents.dead > 0 && health.dead === 0);
    expect(worn.documents.dead).toBe(rewritten);
    expect(worn.dead).toBe(0);
    expect(worn.worn).toBe(true);
  });
});

describe('PGlite', () => {
  it('says that it has no row statistics after a restart instead of reporting a clean table', async () => {
    await withCatalogueDataDir(async (dataDir) => {
      const db = await openDatabase({ dataDir });
      await db.prisma.$executeRawUnsafe('UPDATE icons SET downloads = downloads + 1 WHERE id % 2 = 0');
      await db.close();
      expect(await readTableHealth({ dataDir })).toEqual({ line: 'icons table: no row statistics yet (PGlite keeps none across restarts)', dead: 0, live: 0, documents: { dead: 0, live: 0 }, worn: false });
    });
  });
});
