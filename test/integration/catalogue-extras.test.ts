// The GraphQL fields of issue 14 on the demo catalogue, on PGlite and PostgreSQL: sets with
// their counts and samples, the set filter against an independent count (Prisma's query
// builder, not our SQL), attribution, several icons by ids or slugs with the lists' premium
// rule, and usage with and without a rate-limit standing in the context.
import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueContext } from '../../resolvers/context.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { CATALOGUE_KINDS, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { dataOf, errorCodes, executor, TEST_URL_TEMPLATES } from '../helpers/graphql.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { setsAndCategoriesFor } from '../../resolvers/catalogue/sets-and-categories.ts';

const pgSkip = await postgresUnavailable();

// biome-ignore lint/suspicious/noExplicitAny: results are read field by field
type Json = any;

describe.each(CATALOGUE_KINDS)('issue 14 fields on %s', (kind) => {
  const skip = kind === 'postgres' && Boolean(pgSkip);
  let database: TestDatabase;
  let run: ReturnType<typeof executor>;
  let owner: { accountId: number };
  let ownedId: number;
  const statements: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    database = await createCatalogueCopy(kind, { onQuery: (sql) => statements.push(sql) });
    run = executor(database.db);
    // Read the list index now, so that its read in the background is not counted as a request's statements.
    await listIndexOf(database.db.reads).build();
    // And the sets and categories icon records show, read once per catalogue version (sets-and-categories.test.ts).
    await setsAndCategoriesFor(database.db.reads, 0, []);
    const { prisma } = database.db;
    const premium = await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } });
    ownedId = premium.id;
    owner = { accountId: (await prisma.account.create({ data: { name: 'extras-owner', ownership: { create: { iconId: premium.id } } } })).id };
  });
  afterAll(async () => {
    await database?.drop();
  });

  it.skipIf(skip)('lists sets with published icon counts and samples in a fixed number of statements', async () => {
    statements.length = 0;
    const { sets } = dataOf<Json>(await run('{ sets { prefix premium licenseSpdx attributionRequired iconCount samples { id premium attribution } } }'));
    expect(statements.length).toBeLessThanOrEqual(4); // sets, counts, sample ids, sample records
    const { prisma } = database.db;
    expect(sets.length).toBe(await prisma.iconSet.count());
    for (const set of sets) {
      const row = await prisma.iconSet.findUniqueOrThrow({ where: { prefix: set.prefix } });
      expect(set.iconCount).toBe(await prisma.icon.count({ where: { setId: row.id, published: true } }));
      expect(set.samples).toHaveLength(Math.min(4, set.iconCount));
      expect(set.attributionRequired).toBe(set.licenseSpdx !== 'CC0-1.0');
      for (const icon of set.samples) expect(icon.attribution === null).toBe(!set.attributionRequired);
    }
  });

  it.skipIf(skip)('filters lists and searches by one or several sets, as an independent count says', async () => {
    const { prisma } = database.db;
    for (const prefixes of [['mdi'], ['solar', 'logos'], ['no-such-set']]) {
      const expected = await prisma.icon.count({ where: { published: true, set: { prefix: { in: prefixes } } } });
      const { icons } = dataOf<Json>(await run('query ($set: [String!]) { icons(filter: { set: $set }) { meta { total } } }', { set: prefixes }));
      expect(icons.meta.total).toBe(expected);
    }
    const premiumOnly = dataOf<Json>(await run('{ icons(filter: { set: ["solar"], license: FREE }) { meta { total } } }'));
    expect(premiumOnly.icons.meta.total).toBe(0); // solar is a premium set
  });

  it.skipIf(skip)('gives several icons by ids or slugs in the order asked, svg for free icons only, and reports the rest', async () => {
    const free = await database.db.prisma.icon.findMany({ where: { premium: false, published: true }, orderBy: { id: 'asc' }, take: 2 });
    const query = `query ($ids: [Int!], $slugs: [String!]) {
      icons(ids: $ids, slugs: $slugs) { data { id slug svg(includeOwnedPremium: false) } meta { page perPage total totalPages missing } }
    }`;
    const byIds = dataOf<Json>(await run(query, { ids: [free[1]!.id, -5, ownedId, free[0]!.id] }, owner));
    expect(byIds.icons.data.map((icon: Json) => icon.id)).toEqual([free[1]!.id, ownedId, free[0]!.id]);
    expect(byIds.icons.data.map((icon: Json) => icon.svg === null)).toEqual([false, true, false]);
    expect(byIds.icons.meta).toEqual({ page: 1, perPage: 4, total: 3, totalPages: 1, missing: ['-5'] });
    const bySlugs = dataOf<Json>(await run(query, { slugs: ['nothing', free[0]!.slug] }));
    expect(bySlugs.icons.data.map((icon: Json) => icon.slug)).toEqual([free[0]!.slug]);
    expect(bySlugs.icons.meta.missing).toEqual(['nothing']);
    const none = dataOf<Json>(await run(query, { slugs: ['nothing'] }));
    expect(none.icons.meta).toEqual({ page: 1, perPage: 1, total: 0, totalPages: 0, missing: ['nothing'] });
    const plain = dataOf<Json>(await run('{ icons(perPage: 1) { meta { missing } } }'));
    expect(plain.icons.meta.missing).toBeNull();
  });

  it.skipIf(skip)('refuses a batch beyond 100, both lists at once, or beside a filter, as BAD_USER_INPUT', async () => {
    const query = 'query ($ids: [Int!], $slugs: [String!], $filter: IconFilter) { icons(ids: $ids, slugs: $slugs, filter: $filter) { meta { total } } }';
    for (const variables of [{ ids: Array.from({ length: 101 }, (_, i) => i) }, { ids: [1], slugs: ['a'] }, { ids: [1], filter: { style: 'bold' } }, { slugs: [] }, { slugs: ['a\u0000'] }]) {
      expect(errorCodes(await run(query, variables))).toEqual(['BAD_USER_INPUT']);
    }
  });

  it.skipIf(skip)('says the rate-limit standing the context carries, null figures without one, and the owned premium icons', async () => {
    const query = '{ usage { limit remaining reset requestsThisHour ownedPremiumIcons } }';
    expect(dataOf<Json>(await run(query, {}, owner)).usage).toEqual({ limit: null, remaining: null, reset: null, requestsThisHour: null, ownedPremiumIcons: 1 });
    expect(dataOf<Json>(await run(query)).usage.ownedPremiumIcons).toBe(0);
    const contextValue: CatalogueContext = {
      prisma: database.db.prisma,
      reads: database.db.reads,
      viewer: owner,
      urls: TEST_URL_TEMPLATES,
      rateLimit: { limit: 10, remaining: 7, resetAt: 1_800_000_000, count: 3 },
    };
    const result = await graphql({ schema: createCatalogueSchema(), source: query, contextValue });
    expect(result.data?.usage).toEqual({ limit: 10, remaining: 7, reset: 1_800_000_000, requestsThisHour: 3, ownedPremiumIcons: 1 });
  });
  it.skipIf(skip)('completes the last word of q with the words reaching the most icons, as an independent count says', async () => {
    const { suggest } = dataOf<Json>(await run('{ suggest(q: "arrow ho", limit: 5) { text iconCount } }'));
    expect(suggest.length).toBeGreaterThan(0);
    expect(suggest.length).toBeLessThanOrEqual(5);
    const counts = suggest.map((s: Json) => s.iconCount);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    for (const { text, iconCount } of suggest) {
      expect(text).toMatch(/^arrow ho/);
      const word = text.slice('arrow '.length);
      const icons = await database.db.prisma.icon.findMany({ where: { published: true }, select: { name: true, keywords: true, tagNames: true, categoryName: true } });
      const reached = icons.filter((icon) => [icon.name, ...icon.keywords, ...icon.tagNames, icon.categoryName].join(' ').toLowerCase().split(/[^\p{L}\p{N}]+/u).includes(word)).length;
      expect(iconCount).toBe(reached);
    }
    for (const variables of [{ q: ' ' }, { q: 'home', limit: 26 }, { q: 'x'.repeat(101) }]) {
      expect(errorCodes(await run('query ($q: String!, $limit: Int) { suggest(q: $q, limit: $limit) { text } }', variables))).toEqual(['BAD_USER_INPUT']);
    }
  });
});
