// Real databases for tests: an in-memory PGlite, and a fresh database on the machine's
// PostgreSQL server (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test).
// Under CI=true an unreachable server fails the suite; elsewhere the PostgreSQL cases skip
// with a printed reason.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../prisma/database.ts';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | undefined> | undefined;

/** undefined when PostgreSQL can be used, otherwise the reason it cannot. */
export function postgresUnavailable(): Promise<string | undefined> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return undefined;
    } catch (error) {
      const reason = `PostgreSQL at ${ADMIN_URL} unreachable: ${(error as Error).message}`;
      if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`);
      console.warn(`skipping PostgreSQL tests: ${reason}`);
      return reason;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

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

/** A new, empty database on the PostgreSQL server, dropped by `drop()`. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `icon_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 4 });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export async function createPGliteDatabase(): Promise<TestDatabase> {
  const db = await openDatabase({ dataDir: 'memory://' });
  return { db, drop: () => db.close() };
}

export const DATABASE_KINDS = [
  { kind: 'pglite', create: createPGliteDatabase },
  { kind: 'postgres', create: createPostgresDatabase },
] as const;
