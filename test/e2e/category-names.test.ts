// One category, one name (issue 11, item 14): sets spell one category differently (mdi's
// "Food / Drink", fluent-emoji-flat's "Food & Drink", both `food-drink`); the API calls it by one
// name everywhere, the category's own. Checked on a copy of the demo catalogue over a real
// socket (every icon of every category, through the category filter), in the rows the importer
// wrote, and on a database imported before the fix, which the migration heals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { applyMigrations } from '../../prisma/engine/migrations.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
const HEALING_MIGRATION = '20261123000000_icon_category_names';

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'category-names', hourlyLimit: 100_000 })).key;
  gateway = await startGatewayInProcess(database.db, { env });
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

interface Category {
  slug: string;
  name: string;
  icon_count: number;
}

/** Icons whose category name differs from the category's own, in the database. */
async function disagreeing(db: TestDatabase): Promise<{ slug: string; category: string; icon: string; icons: number }[]> {
  const rows = await db.db.prisma.$queryRawUnsafe<{ slug: string; category: string; icon: string; icons: bigint }[]>(
    `SELECT c.slug, c.name AS category, i.category_name AS icon, count(*) AS icons FROM icons i JOIN categories c ON c.id = i.category_id
     WHERE i.category_name <> c.name GROUP BY 1, 2, 3 ORDER BY 1, 3`,
  );
  return rows.map((row) => ({ ...row, icons: Number(row.icons) }));
}

describe('one category, one name', () => {
  it('names every icon’s category as /categories names it, for every category of the demo catalogue', async () => {
    const { data: categories } = await get<{ data: Category[] }>('/categories');
    const foodDrink = categories.find((category) => category.slug === 'food-drink');
    expect(foodDrink?.icon_count).toBeGreaterThan(136); // mdi's "Food / Drink" icons and fluent-emoji-flat's 136 "Food & Drink"
    const mismatches = new Map<string, number>();
    const counted = new Map<string, number>();
    const pages = async (category: Category) => {
      for (let page = 1; ; page++) {
        const { data, meta } = await get<{ data: { category: string }[]; meta: { total_pages: number } }>(`/icons?category=${category.slug}&per_page=100&page=${page}`);
        counted.set(category.slug, (counted.get(category.slug) ?? 0) + data.length);
        for (const icon of data.filter((item) => item.category !== category.name)) {
          const label = `${category.slug}: "${icon.category}" instead of "${category.name}"`;
          mismatches.set(label, (mismatches.get(label) ?? 0) + 1);
        }
        if (page >= meta.total_pages) return;
      }
    };
    const queue = [...categories];
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await pages(next);
    }));
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(categories.map((category) => [category.slug, category.icon_count])));
    const icons = [...counted.values()].reduce((sum, n) => sum + n, 0);
    expect(Object.fromEntries(mismatches)).toEqual({});
    expect(icons).toBeGreaterThan(20_000);
    const found = await get<{ data: { slug: string; category: string }[] }>('/search?q=food&category=food-drink&per_page=100');
    expect(found.data.length).toBeGreaterThan(0);
    for (const icon of found.data) expect(icon.category).toBe(foodDrink!.name);
    const one = await get<{ data: { category: string } }>(`/icons/${found.data[0]!.slug}`);
    expect(one.data.category).toBe(foodDrink!.name);
  });

  it('has the importer copy the category’s own name into every icon row', async () => {
    expect(await disagreeing(database)).toEqual([]);
  });

  it('heals a database imported before, through its migration; the API names the category alike meanwhile', async () => {
    const old = await createCatalogueCopy('pglite');
    try {
      const { prisma } = old.db;
      // What the importer wrote before: fluent-emoji-flat's icons with their set's own spelling.
      const spoiled = await prisma.$executeRawUnsafe(
        `UPDATE icons SET category_name = 'Food & Drink' FROM icon_sets s, categories c
         WHERE s.id = icons.set_id AND s.prefix = 'fluent-emoji-flat' AND c.id = icons.category_id AND c.slug = 'food-drink'`,
      );
      expect(spoiled).toBe(136);
      await prisma.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE migration_name = $1`, HEALING_MIGRATION);
      const [fluent] = await prisma.$queryRawUnsafe<{ slug: string; category: string }[]>(
        `SELECT i.slug, c.name AS category FROM icons i JOIN icon_sets s ON s.id = i.set_id JOIN categories c ON c.id = i.category_id
         WHERE s.prefix = 'fluent-emoji-flat' AND c.slug = 'food-drink' AND i.published ORDER BY i.id LIMIT 1`,
      );
      const oldKey = (await createApiKey(prisma, { accountName: 'old-database' })).key;
      const served = await startGatewayInProcess(old.db, { env });
      try {
        const response = await fetch(`${served.url}/icons/${fluent!.slug}`, { headers: { 'x-api-key': oldKey } });
        expect(((await response.json()) as { data: { category: string } }).data.category).toBe(fluent!.category);
      } finally {
        await served.close();
      }
      expect((await disagreeing(old)).map(({ icon, icons }) => [icon, icons])).toEqual([['Food & Drink', 136]]);
      expect(await applyMigrations(old.db)).toEqual([HEALING_MIGRATION]);
      expect(await disagreeing(old)).toEqual([]);
    } finally {
      await old.drop();
    }
  });
});
