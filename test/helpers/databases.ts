// Real databases for tests: an in-memory PGlite, and a fresh database on the machine's
// PostgreSQL server (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test).
// Under CI=true an unreachable server fails the suite; elsewhere the PostgreSQL cases skip
// with a printed reason.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { serviceCheck } from './services.ts';
import { openDatabase, type Database, type DatabaseOptions } from '../../prisma/database.ts';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** undefined when PostgreSQL can be used, otherwise the reason it cannot. */
export const postgresUnavailable = serviceCheck('PostgreSQL', ADMIN_URL, async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
});

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  db: Database;
  /** A URL for child processes (PostgreSQL only). */
  url?: string;
  drop(): Promise<void>;
}

type ExtraOptions = Pick<DatabaseOptions, 'onQuery' | 'serving'>;

/** A new database on the PostgreSQL server (empty, or a copy of a template), dropped by `drop()`. */
export async function createPostgresDatabase(options: ExtraOptions & { template?: string } = {}): Promise<TestDatabase> {
  const name = `icon_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const create = `CREATE DATABASE "${name}"${options.template ? ` TEMPLATE "${options.template}"` : ''}`;
  // Copies of one template made at the same moment can collide ("being accessed by other users").
  for (let attempt = 1; ; attempt++) {
    try {
      await admin((client) => client.query(create));
      break;
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 4, onQuery: options.onQuery, serving: options.serving });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export async function createPGliteDatabase(options: ExtraOptions & { loadDataDir?: Blob } = {}): Promise<TestDatabase> {
  const db = await openDatabase({ dataDir: 'memory://', ...options });
  return { db, drop: () => db.close() };
}

export const DATABASE_KINDS = [
  { kind: 'pglite', create: () => createPGliteDatabase() },
  { kind: 'postgres', create: () => createPostgresDatabase() },
] as const;

/**
 * A copy of the demo catalogue (migrated and imported once per run by test/global-setup.ts),
 * for suites that read it. Each call gives an independent database.
 */
export async function createCatalogueCopy(kind: 'pglite' | 'postgres', options: ExtraOptions = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const dump = new Blob([await readFile(inject('catalogueDump'))]);
    return createPGliteDatabase({ ...options, loadDataDir: dump });
  }
  const template = inject('catalogueTemplate');
  if (!template) throw new Error('no PostgreSQL catalogue template (PostgreSQL unreachable)');
  return createPostgresDatabase({ ...options, template });
}

export const CATALOGUE_KINDS = ['pglite', 'postgres'] as const;

/**
 * Runs `use` on a PGlite data directory of its own holding the test catalogue, closed (as a
 * stopped gateway leaves it: what the bench and the CLI open by path), and removes it after.
 */
export async function withCatalogueDataDir<T>(use: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'catalogue-data-dir-'));
  try {
    const dump = new Blob([await readFile(inject('catalogueDump'))]);
    await (await openDatabase({ dataDir, loadDataDir: dump })).close();
    return await use(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
