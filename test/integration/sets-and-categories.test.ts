// The sets and categories that icon records show come from a copy in memory
// (resolvers/catalogue/sets-and-categories.ts), not from a join in each statement. On PGlite and
// PostgreSQL: the records show what a join gives; the copy is read once for any number of pages
// and icons; an import that renames a set or a category (moving the catalogue version) is shown
// at once, and so is a database put back to an earlier version; rows naming a category the copy
// lacks (written without moving the version) have the copy read again instead of failing, and
// rows naming what no read finds are a 503's error, not a 500's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIconDetail } from '../../resolvers/catalogue/icon-detail.ts';
import type { IconRecord } from '../../resolvers/catalogue/icon-records.ts';
import { listPage } from '../../resolvers/catalogue/list-icons.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { setsAndCategoriesFor } from '../../resolvers/catalogue/sets-and-categories.ts';
import { DatabaseUnavailableError } from '../../prisma/unavailable.ts';
import { CATALOGUE_KINDS, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

const pgSkip = await postgresUnavailable();

/** The copy's read: the one statement that aggregates both tables. */
const isCopyRead = (sql: string) => /FROM icon_sets\) AS sets/.test(sql) && /FROM categories\) AS categories/.test(sql);

describe.each(CATALOGUE_KINDS)('sets and categories in memory on %s', (kind) => {
  const skip = kind === 'postgres' && Boolean(pgSkip);
  let database: TestDatabase;
  const statements: string[] = [];
  const copyReads = () => statements.filter(isCopyRead).length;

  beforeAll(async () => {
    if (skip) return;
    database = await createCatalogueCopy(kind, { onQuery: (sql) => statements.push(sql) });
    await listIndexOf(database.db.reads).build();
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** What a join gives for these icons. */
  async function joined(ids: number[]) {
    const rows = await database.db.prisma.$queryRawUnsafe<
      { id: number; category_name: string; category_slug: string; prefix: string; name: string; author: string; author_url: string | null; license_title: string; license_spdx: string | null; license_url: string | null; premium: boolean }[]
    >(
      `SELECT i.id, c.name AS category_name, c.slug AS category_slug, s.prefix, s.name, s.author, s.author_url, s.license_title, s.license_spdx, s.license_url, s.premium
       FROM icons i JOIN categories c ON c.id = i.category_id JOIN icon_sets s ON s.id = i.set_id WHERE i.id = ANY($1::int[])`,
      ids,
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          category: row.category_name,
          categorySlug: row.category_slug,
          license: row.license_title,
          licenseUrl: row.license_url,
          set: { prefix: row.prefix, name: row.name, author: row.author, authorUrl: row.author_url, licenseTitle: row.license_title, licenseSpdx: row.license_spdx, licenseUrl: row.license_url, premium: row.premium },
        },
      ]),
    );
  }
  const shown = (icon: IconRecord) => ({ category: icon.category, categorySlug: icon.categorySlug, license: icon.license, licenseUrl: icon.licenseUrl, set: { ...icon.set } });

  it.skipIf(skip)('shows what a join gives, reading the copy once for any number of pages and icons', async () => {
    const { reads } = database.db;
    const icons: IconRecord[] = [];
    for (const sort of ['popular', 'newest', 'az'] as const) {
      for (const page of [1, 2, 3]) icons.push(...(await listPage(reads, { sort, page, perPage: 100 })).icons);
    }
    // Concurrent single icons (one statement), by id and by slug.
    const details = await Promise.all(icons.slice(0, 40).map((icon, n) => loadIconDetail(reads, { ref: n % 2 ? String(icon.id) : icon.slug }, null)));
    icons.push(...details.map((detail) => detail!.icon));
    const expected = await joined(icons.map((icon) => icon.id));
    expect(new Set(icons.map((icon) => icon.set.prefix)).size).toBeGreaterThan(3);
    for (const icon of icons) expect(shown(icon), icon.slug).toEqual(expected.get(icon.id));
    expect(copyReads()).toBe(1);
  });

  it.skipIf(skip)('shows an import’s new set and category names at once, reading the copy once more', async () => {
    const { reads, prisma } = database.db;
    const [first] = (await listPage(reads, { sort: 'popular', page: 1, perPage: 1 })).icons;
    const before = copyReads();
    const author = `Renamed author ${kind}`;
    const category = `Renamed category ${kind}`;
    // As an import does: the rows and the catalogue version in one transaction.
    await prisma.$transaction([
      prisma.$executeRaw`UPDATE icon_sets SET author = ${author}, license_url = 'https://example.com/license' WHERE prefix = ${first!.set.prefix}`,
      prisma.$executeRaw`UPDATE categories SET name = ${category} WHERE slug = ${first!.categorySlug}`,
      prisma.$executeRaw`UPDATE catalogue_state SET version = version + 1 WHERE id = 1`,
    ]);
    const detail = await loadIconDetail(reads, { ref: first!.slug }, null);
    const [listed] = (await listPage(reads, { sort: 'popular', page: 1, perPage: 1 })).icons;
    for (const icon of [detail!.icon, listed!]) {
      expect(icon.id).toBe(first!.id);
      expect(icon.set.author).toBe(author);
      expect(icon.set.licenseUrl).toBe('https://example.com/license');
      expect(icon.category).toBe(category);
      expect(shown(icon)).toEqual((await joined([icon.id])).get(icon.id));
    }
    expect(copyReads()).toBe(before + 1);
  });

  it.skipIf(skip)('reads the copy again for rows that name a category it lacks, even at the same version', async () => {
    const { reads, prisma } = database.db;
    const [icon] = (await listPage(reads, { sort: 'newest', page: 1, perPage: 1 })).icons;
    const before = copyReads();
    // A writer other than the importer: a new category, the catalogue version left as it is.
    const [created] = await prisma.$queryRaw<{ id: number }[]>`INSERT INTO categories (slug, name) VALUES (${`outside-${kind}`}, 'Outside writer') RETURNING id`;
    await prisma.$executeRaw`UPDATE icons SET category_id = ${created!.id} WHERE id = ${icon!.id}`;
    const detail = await loadIconDetail(reads, { ref: String(icon!.id) }, null);
    expect(detail!.icon).toMatchObject({ category: 'Outside writer', categorySlug: `outside-${kind}` });
    expect(copyReads()).toBe(before + 1);
  });

  it.skipIf(skip)('reads the copy again for a database put back to an earlier catalogue version', async () => {
    const { reads, prisma } = database.db;
    const [icon] = (await listPage(reads, { sort: 'az', page: 1, perPage: 1 })).icons;
    const before = copyReads();
    const author = `Restored author ${kind}`;
    // As a restore from an older backup looks to a running gateway: the same ids, a lower version.
    await prisma.$transaction([
      prisma.$executeRaw`UPDATE icon_sets SET author = ${author} WHERE prefix = ${icon!.set.prefix}`,
      prisma.$executeRaw`UPDATE catalogue_state SET version = version - 3 WHERE id = 1`,
    ]);
    const detail = await loadIconDetail(reads, { ref: icon!.slug }, null);
    expect(detail!.icon.set.author).toBe(author);
    expect(copyReads()).toBe(before + 1);
  });

  it.skipIf(skip)('gives a 503’s error, not a 500’s, for rows naming a category no read finds', async () => {
    const { reads, prisma } = database.db;
    const [state] = await prisma.$queryRaw<{ version: number }[]>`SELECT version::int AS version FROM catalogue_state WHERE id = 1`;
    const [set] = await prisma.iconSet.findMany({ take: 1 });
    // Only replicas at different states behind one address can give such rows; the rows are made up here.
    const failure = await setsAndCategoriesFor(reads, state!.version, [{ set_id: set!.id, category_id: 2_000_000_000 }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect(failure).toMatchObject({ reason: 'busy', retryAfterSeconds: 1 });
  });
});
