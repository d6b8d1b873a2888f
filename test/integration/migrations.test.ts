import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, diffMigrationsToSchema, migrationsNeedEngine, readMigrationsList } from '../../prisma/engine/migrations.ts';
import { createPGliteDatabase, createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: string;
  is_generated: string;
}

async function describeSchema({ db }: TestDatabase) {
  const columns = await db.prisma.$queryRawUnsafe<ColumnRow[]>(
    `SELECT table_name, column_name, data_type, is_nullable, is_generated FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const indexes = await db.prisma.$queryRawUnsafe<{ indexname: string; indexdef: string }[]>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
  );
  return { columns, indexes };
}

const pgSkip = await postgresUnavailable();

describe('migrations through the WASM schema engine', () => {
  let pglite: TestDatabase;
  let postgres: TestDatabase | undefined;

  beforeAll(async () => {
    pglite = await createPGliteDatabase();
    if (!pgSkip) postgres = await createPostgresDatabase();
  });
  afterAll(async () => {
    await pglite?.drop();
    await postgres?.drop();
  });

  it('applies every migration to an empty PGlite database, once', async () => {
    const names = (await readMigrationsList()).migrationDirectories.map((dir) => dir.path);
    expect(names.length).toBeGreaterThan(0);
    expect(await applyMigrations(pglite.db)).toEqual(names);
    expect(await applyMigrations(pglite.db)).toEqual([]);
    const recorded = await pglite.db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    expect(recorded.map((row) => row.migration_name)).toEqual(names);
  });

  it('needs the schema engine only when a migration is not recorded as applied as it is', async () => {
    const list = await readMigrationsList();
    const fresh = await createPGliteDatabase();
    try {
      // No `_prisma_migrations` yet.
      expect(await migrationsNeedEngine(fresh.db, list)).toBe(true);
    } finally {
      await fresh.drop();
    }
    await applyMigrations(pglite.db);
    expect(await migrationsNeedEngine(pglite.db, list)).toBe(false);
    const [first, ...rest] = list.migrationDirectories;
    const withFirst = (content: { tag: 'ok' | 'error'; value: string }) => ({ ...list, migrationDirectories: [{ ...first!, migrationFile: { ...first!.migrationFile, content } }, ...rest] });
    const text = first!.migrationFile.content.value;
    expect(await migrationsNeedEngine(pglite.db, withFirst({ tag: 'ok', value: `${text}\n-- edited` }))).toBe(true);
    expect(await migrationsNeedEngine(pglite.db, withFirst({ tag: 'error', value: 'unreadable' }))).toBe(true);
    const added = { path: '29991231000000_next', migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: 'SELECT 1;' } } };
    expect(await migrationsNeedEngine(pglite.db, { ...list, migrationDirectories: [...list.migrationDirectories, added] })).toBe(true);
    // Recorded but not in the folder.
    expect(await migrationsNeedEngine(pglite.db, { ...list, migrationDirectories: rest })).toBe(true);
    // A failed migration recorded (not finished, not rolled back) is the engine's to report; once rolled back it is ignored.
    const { prisma } = pglite.db;
    await prisma.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ('test-failed', 'x', '29991231000000_failed', now(), 0)`,
    );
    expect(await migrationsNeedEngine(pglite.db, list)).toBe(true);
    await prisma.$executeRawUnsafe(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = 'test-failed'`);
    expect(await migrationsNeedEngine(pglite.db, list)).toBe(false);
    await prisma.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE id = 'test-failed'`);
  });

  it.skipIf(pgSkip)('gives PostgreSQL the same tables, columns and indexes as PGlite', async () => {
    await applyMigrations(postgres!.db);
    const [onPostgres, onPGlite] = await Promise.all([describeSchema(postgres!), describeSchema(pglite)]);
    expect(onPGlite.columns.length).toBeGreaterThan(40);
    expect(onPostgres).toEqual(onPGlite);
    expect(onPGlite.columns).toContainEqual(
      expect.objectContaining({ table_name: 'icons', column_name: 'search', is_generated: 'ALWAYS' }),
    );
  });

  it('leaves no drift between the migrations and schema.prisma', async () => {
    expect(await diffMigrationsToSchema(pglite.db)).toBe('');
  });

  it.skipIf(pgSkip)('leaves no drift on PostgreSQL either (shadow database created and dropped)', async () => {
    expect(await diffMigrationsToSchema(postgres!.db)).toBe('');
    const shadows = await postgres!.db.prisma.$queryRawUnsafe<{ datname: string }[]>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'prisma_shadow_%'`,
    );
    expect(shadows).toEqual([]);
  });

  it('fills the generated search document from name, keywords, tags and category', async () => {
    const { prisma } = pglite.db;
    const set = await prisma.iconSet.create({
      data: { prefix: 't', name: 'T', author: 'a', licenseTitle: 'MIT', version: '1', sourceDigest: 'x', iconCount: 1, importedAt: new Date() },
    });
    const category = await prisma.category.create({ data: { slug: 'weather', name: 'Weather' } });
    await prisma.icon.create({
      data: {
        slug: 't-sun', setId: set.id, sourceName: 'sun', name: 'Sun Bright', categoryId: category.id, categoryName: 'Weather',
        style: 'outline', colors: ['monochrome'], downloads: 1, publishedAt: new Date(), width: 24, height: 24,
        body: '<path/>', keywords: ['sunny'], tagNames: ['Summer'],
      },
    });
    const [row] = await prisma.$queryRawUnsafe<{ doc: string }[]>(`SELECT search::text AS doc FROM icons WHERE slug = 't-sun'`);
    expect(row!.doc).toBe(`'bright':2A 'summer':4B 'sun':1A 'sunny':3B 'weather':5C`);
  });

  it('keeps the id, name, popularity and search document of every published icon, and only those, in icon_search_documents', async () => {
    const { prisma } = pglite.db;
    const set = await prisma.iconSet.create({
      data: { prefix: 'd', name: 'D', author: 'a', licenseTitle: 'MIT', version: '1', sourceDigest: 'x', iconCount: 1, importedAt: new Date() },
    });
    const category = await prisma.category.create({ data: { slug: 'docs', name: 'Docs' } });
    const icon = (sourceName: string, published: boolean) => ({
      slug: `d-${sourceName}`, setId: set.id, sourceName, name: `Moon ${sourceName}`, categoryId: category.id, categoryName: 'Docs',
      style: 'outline', colors: ['monochrome'], publishedAt: new Date(), published, width: 24, height: 24, body: '<path/>', keywords: [], tagNames: [],
    });
    const shown = await prisma.icon.create({ data: icon('one', true) });
    const hidden = await prisma.icon.create({ data: icon('two', false) });
    // Each kept row against its icon: the same name, popularity and document.
    const documents = () =>
      prisma.$queryRawUnsafe<{ id: number; same: boolean }[]>(
        `SELECT d.id, (d.name, d.popularity, d.search) = (i.name, i.popularity, i.search) AS same
         FROM icon_search_documents d JOIN icons i ON i.id = d.id WHERE i.set_id = ${set.id} ORDER BY d.id`,
      );
    expect(await documents()).toEqual([{ id: shown.id, same: true }]);

    await prisma.icon.update({ where: { id: shown.id }, data: { keywords: ['crescent'], name: 'Moon Crescent' } });
    await prisma.icon.update({ where: { id: hidden.id }, data: { published: true } });
    expect(await documents()).toEqual([{ id: shown.id, same: true }, { id: hidden.id, same: true }]);
    const [matches] = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM icon_search_documents WHERE search @@ 'crescent'::tsquery`);
    expect(matches!.n).toBe(1);

    // A download fold moves popularity (recent_downloads is in its formula).
    await prisma.icon.update({ where: { id: hidden.id }, data: { recentDownloads: 99, downloads: 99 } });
    const [moved] = await prisma.$queryRawUnsafe<{ popularity: number }[]>(`SELECT popularity FROM icon_search_documents WHERE id = ${hidden.id}`);
    expect(moved!.popularity).toBeGreaterThan(1);
    expect(await documents()).toEqual([{ id: shown.id, same: true }, { id: hidden.id, same: true }]);

    await prisma.icon.update({ where: { id: shown.id }, data: { published: false } });
    expect(await documents()).toEqual([{ id: hidden.id, same: true }]);
    await prisma.icon.delete({ where: { id: hidden.id } });
    expect(await documents()).toEqual([]);
  });
});
