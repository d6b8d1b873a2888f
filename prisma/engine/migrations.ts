// Migrations in Prisma's own layout (prisma/migrations/<timestamp>_<name>/migration.sql),
// applied through the WASM schema engine. It records them in `_prisma_migrations`, so a
// deployment that has the native binary can run `prisma migrate deploy` on the same database.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MigrationList, SchemaFilter } from '@prisma/schema-engine-wasm';
import type { Database } from '../database.ts';
import { openSchemaEngine, type EngineHandle } from './schema-engine.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export const PRISMA_DIR = resolve(PROJECT_ROOT, 'prisma');
export const MIGRATIONS_DIR = join(PRISMA_DIR, 'migrations');
export const SCHEMA_PATH = join(PRISMA_DIR, 'schema.prisma');

const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };

export async function readMigrationsList(baseDir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockfileContent = await readFile(join(baseDir, 'migration_lock.toml'), 'utf8').catch(() => null);
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: lockfileContent },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: await readFile(join(baseDir, name, 'migration.sql'), 'utf8').then(
            (text) => ({ tag: 'ok' as const, value: text }),
            (error: Error) => ({ tag: 'error' as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

async function withEngine<T>(db: Database, work: (handle: EngineHandle) => Promise<T>): Promise<T> {
  const content = await readFile(SCHEMA_PATH, 'utf8');
  const handle = await openSchemaEngine(db.migrationAdapter, { path: SCHEMA_PATH, content });
  try {
    return await work(handle);
  } catch (error) {
    throw handle.explain(error);
  } finally {
    await handle.close();
  }
}

/**
 * Whether the schema engine has anything to do: false when `_prisma_migrations` records every
 * migration of the list as applied, with its file's checksum (the SHA-256 of migration.sql, as
 * the engine records it), and records nothing else unfinished or unknown. Loading the engine
 * keeps about 24 MB resident for the life of the process (its WebAssembly compiled and
 * instantiated; measured on PostgreSQL), and every gateway start paid that to learn there was
 * nothing to apply. Anything else (no table yet, a new, failed, edited or unknown migration) is
 * left to the engine, which applies or reports it as before.
 */
export async function migrationsNeedEngine(db: Database, migrationsList: MigrationList): Promise<boolean> {
  const [table] = await db.prisma.$queryRawUnsafe<{ present: boolean }[]>(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
  if (!table?.present) return true;
  const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished: boolean; rolled_back: boolean }[]>(
    `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations`,
  );
  // A rolled-back row was superseded (the engine ignores it); an unfinished one is a failure to report.
  if (rows.some((row) => !row.finished && !row.rolled_back)) return true;
  const applied = new Map(rows.filter((row) => row.finished && !row.rolled_back).map((row) => [row.migration_name, row.checksum]));
  const directories = migrationsList.migrationDirectories;
  if (applied.size !== directories.length) return true;
  return !directories.every(({ path, migrationFile: { content } }) => content.tag === 'ok' && applied.get(path) === createHash('sha256').update(content.value).digest('hex'));
}

/** Applies every migration not yet recorded in `_prisma_migrations`; returns their names. */
export async function applyMigrations(db: Database, baseDir = MIGRATIONS_DIR): Promise<string[]> {
  const migrationsList = await readMigrationsList(baseDir);
  if (!(await migrationsNeedEngine(db, migrationsList))) return [];
  return withEngine(db, async ({ engine }) => {
    const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
    return result.appliedMigrationNames;
  });
}

/**
 * The SQL that would take a database migrated with the current migrations to the schema in
 * schema.prisma ('' when they agree). Replays the migrations on a shadow database.
 */
export async function diffMigrationsToSchema(db: Database, baseDir = MIGRATIONS_DIR): Promise<string> {
  const migrationsList = await readMigrationsList(baseDir);
  const content = await readFile(SCHEMA_PATH, 'utf8');
  return withEngine(db, async ({ engine }) => {
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content }] },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    return normalizeEmptyScript(result.stdout ?? '');
  });
}

function normalizeEmptyScript(script: string): string {
  return /^\s*(-- This is an empty migration\.)?\s*$/.test(script) ? '' : script;
}
