// Builds the demo catalogue once per test run, so suites that need one copy it instead of
// importing it again: a PostgreSQL template database (CREATE DATABASE ... TEMPLATE takes about
// a second) and a PGlite data-directory dump (loaded in about a second).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../prisma/database.ts';
import { applyMigrations } from '../prisma/engine/migrations.ts';
import { importCatalogue } from '../prisma/import/demo-catalogue.ts';
import { ADMIN_URL, postgresUnavailable } from './helpers/databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    catalogueDump: string;
    catalogueTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  // Child gateways run what `npm start` runs: the bundle.
  execFileSync(process.execPath, ['scripts/build-gateway.mjs'], { stdio: 'inherit' });
  const dir = await mkdtemp(join(tmpdir(), 'icon-catalogue-test-'));
  // One after the other: PGlite runs in this thread, and while its import held the event loop
  // on a loaded machine, a PostgreSQL connection opened beside it timed out with its answer
  // waiting (Node runs the timeout before reading the socket), and the whole run stopped.
  const template = await buildPostgresTemplate();
  const dumpPath = await buildPGliteDump(dir);
  project.provide('catalogueDump', dumpPath);
  project.provide('catalogueTemplate', template);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (template) await adminQuery(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  };
}

async function buildPGliteDump(dir: string): Promise<string> {
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    await applyMigrations(db);
    await importCatalogue(db.prisma);
    const path = join(dir, 'catalogue.tar');
    await writeFile(path, Buffer.from(await (await db.dump!()).arrayBuffer()));
    return path;
  } finally {
    await db.close();
  }
}

async function buildPostgresTemplate(): Promise<string | null> {
  if (await postgresUnavailable()) return null;
  const name = `icon_template_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 2 });
  try {
    await applyMigrations(db);
    await importCatalogue(db.prisma);
  } finally {
    await db.close();
  }
  return name;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
