// An importer killed while it rebuilds the search vocabulary: the sets it wrote are committed,
// the vocabulary (`search_words`) is not. The next import finds every set unchanged, and must
// still rebuild it, so typo correction works again without --force; on the embedded database
// the next start does it too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDatabase } from '../../prisma/bootstrap.ts';
import { openDatabase, type Database, type PrismaClient } from '../../prisma/database.ts';
import { applyMigrations } from '../../prisma/engine/migrations.ts';
import { importCatalogue } from '../../prisma/import/demo-catalogue.ts';
import type { ImportEvent } from '../../prisma/import/import-sets.ts';
import { searchIconIds } from '../../resolvers/catalogue/search/index.ts';
import { startCli } from '../helpers/cli.ts';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

const pgSkip = await postgresUnavailable();

const cli = (args: string[], env: Record<string, string>) => startCli(args, env);

async function vocabularySize(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM search_words');
  return Number(row!.n);
}

/** Slugs of the first icons a misspelt query finds: `raect` is only found through typo correction. */
async function typoSearch({ prisma, reads }: Pick<Database, 'prisma' | 'reads'>): Promise<string[]> {
  const { ids } = await searchIconIds(reads, { q: 'raect', page: 1, perPage: 5 });
  const icons = await prisma.icon.findMany({ where: { id: { in: ids } }, select: { slug: true } });
  return icons.map((icon) => icon.slug);
}

async function waitFor(check: () => Promise<boolean>, what: string, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(pgSkip)('an importer killed (kill -9) during the vocabulary refresh, on PostgreSQL', () => {
  let database: TestDatabase;
  let name: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    name = new URL(database.url!).pathname.slice(1);
    await applyMigrations(database.db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('leaves the next import, though every set is unchanged, to rebuild the vocabulary', async () => {
    const env = { DATABASE_URL: database.url! };
    // The test holds the vocabulary locked, so the importer's refresh waits in the window.
    const holder = new pg.Client({ connectionString: database.url });
    // Another session watches: a transaction sees pg_stat_activity as it was when it first looked.
    const watcher = new pg.Client({ connectionString: database.url });
    await Promise.all([holder.connect(), watcher.connect()]);
    try {
      await holder.query('BEGIN');
      // (A materialized view cannot be LOCKed; altering it takes a lock every REFRESH waits for.)
      await holder.query('ALTER MATERIALIZED VIEW search_words ALTER COLUMN ndoc SET STATISTICS 100');
      const importer = cli(['import', '--set', 'logos'], env);
      // The session whose REFRESH waits for the lock: the importer's.
      const refreshSession = async () => {
        const { rows } = await watcher.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query ILIKE '%REFRESH MATERIALIZED VIEW%search_words%'`,
          [name],
        );
        return rows[0]?.pid;
      };
      let refreshPid: number | undefined;
      await waitFor(async () => {
        refreshPid = await refreshSession();
        return refreshPid !== undefined || importer.child.exitCode !== null;
      }, 'the importer reaching the refresh');
      expect(importer.child.exitCode).toBeNull();
      importer.child.kill('SIGKILL');
      expect((await importer.exited).signal).toBe('SIGKILL');
      // Its statement dies with it. (A server session does not notice its client is gone while it
      // waits, and would go on to finish the statement; on the embedded database the statement
      // runs inside the killed process.)
      await watcher.query('SELECT pg_terminate_backend($1)', [refreshPid]);
      await holder.query('ROLLBACK');
    } finally {
      await Promise.all([holder.end(), watcher.end()]);
    }

    const { prisma } = database.db;
    expect(await prisma.icon.count({ where: { published: true } })).toBeGreaterThan(2000); // the set was committed
    expect(await vocabularySize(prisma)).toBe(0);
    expect(await typoSearch(database.db)).toEqual([]);

    const again = await cli(['import', '--set', 'logos'], env).exited;
    expect(again.output).toContain('0 imported, 1 unchanged');
    expect(again.output).toContain('Search data rebuilt');
    expect(again.code).toBe(0);
    expect(await vocabularySize(prisma)).toBeGreaterThan(1000);
    expect(await typoSearch(database.db)).toContain('logos-react');
  });
});

describe('an embedded database whose sets were written but whose vocabulary was not', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'icon-interrupted-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * The state a kill during the refresh leaves: the set committed, the vocabulary as the
   * migration made it (empty). The import is stopped right after the set's commit, where the
   * refresh would begin.
   */
  async function interruptedImport(dataDir: string) {
    const db = await openDatabase({ dataDir });
    try {
      await applyMigrations(db);
      const stopAfterTheSet = (event: ImportEvent) => {
        if (event.type === 'set-done') throw new Error('killed before the refresh');
      };
      await expect(importCatalogue(db.prisma, { only: ['logos'], onEvent: stopAfterTheSet })).rejects.toThrow('killed before the refresh');
      expect(await db.prisma.icon.count()).toBeGreaterThan(2000);
      expect(await vocabularySize(db.prisma)).toBe(0);
    } finally {
      await db.close();
    }
  }

  it('is healed by the next import, which finds the set unchanged', async () => {
    const dataDir = join(dir, 'import');
    await interruptedImport(dataDir);
    const db = await openDatabase({ dataDir });
    try {
      const summary = await importCatalogue(db.prisma, { only: ['logos'] });
      expect(summary.sets.map((set) => set.status)).toEqual(['unchanged']);
      expect(await typoSearch(db)).toContain('logos-react');
    } finally {
      await db.close();
    }
  });

  it('is healed by the next start', async () => {
    const dataDir = join(dir, 'start');
    await interruptedImport(dataDir);
    const db = await openDatabase({ dataDir });
    try {
      await bootstrapDatabase(db);
      expect(await typoSearch(db)).toContain('logos-react');
    } finally {
      await db.close();
    }
  });
});
