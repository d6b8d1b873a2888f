// `search` on the demo catalogue (5 real Iconify sets), on PGlite and PostgreSQL: result
// quality on real queries, the relevance order, filters, sorts and pagination checked against
// an independent in-memory model of the rules in the README ("Search"), typo correction checked against
// a vocabulary computed with ts_stat, and hostile input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma, PrismaClient } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import type { IconFilter, SortKey } from '../../resolvers/catalogue/filters.ts';
import { listIndexOf, type MatchQuery, type MatchTerm, type NamedIcons } from '../../resolvers/catalogue/list-index/index.ts';
import { matchQueryOf, parseQuery, searchIconIds, type SearchRequest } from '../../resolvers/catalogue/search/index.ts';
import { planFitsEveryValue, searchPageSql, type NamedSegments, type TierCandidates } from '../../resolvers/catalogue/search/build-query.ts';
import { planSearch } from '../../resolvers/catalogue/search/plan.ts';
import { oneEditVariants } from '../../resolvers/catalogue/search/typos.ts';
import { loadVocabulary } from '../../resolvers/catalogue/search/vocabulary.ts';
import { CATALOGUE_KINDS, createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';

/** Real queries and an icon that must be among the first five results (chosen from the data, see comments). */
const QUALITY: [query: string, expected: string, why: string][] = [
  ['home', 'mdi-home', 'name is exactly "Home"'],
  ['hom', 'mdi-home', 'prefix while typing'],
  ['arr', 'mdi-arrow-up', 'prefix: "Arrow Up" is among the shortest names starting with arr'],
  ['arrow left', 'mdi-arrow-left', 'two words, exact name'],
  ['left arrow', 'fluent-emoji-flat-left-arrow', 'two words in that order: the emoji "Left Arrow"'],
  ['chevron d', 'mdi-chevron-down', 'short last word while typing, as a name prefix'],
  ['arow', 'mdi-arrow-up', 'typo (missing letter) -> arrow'],
  ['calender', 'mdi-calendar', 'typo (wrong letter) -> calendar'],
  ['serach', 'tabler-search', 'typo (swapped letters) -> search'],
  ['hoem', 'tabler-home', 'typo (swapped letters) -> home'],
  ['setings', 'tabler-settings', 'typo (missing letter) -> settings'],
  ['trsh', 'tabler-trash', 'typo (missing letter) -> trash'],
  ['sun cloud', 'solar-cloud-sun-bold', 'two words in either order'],
  ['user plus', 'tabler-user-plus', 'two words, exact name'],
  ['credit card', 'mdi-credit-card', 'two words, exact name'],
  ['thumbs up', 'fluent-emoji-flat-thumbs-up', 'two words, one short'],
  ['github', 'logos-github', 'a brand'],
  ['docker', 'logos-docker', 'a brand'],
  ['typescript', 'logos-typescript', 'a brand'],
  ['cat', 'fluent-emoji-flat-cat', 'short word, exact name'],
  ['pizza', 'tabler-pizza', 'exact name'],
  ['wifi', 'mdi-wifi', 'exact name'],
  ['weather', 'mdi-weather-fog', 'category Weather; also the shortest name starting with Weather'],
  ['smileys', 'fluent-emoji-flat-zzz', 'category "Smileys & Emotion" only: the shortest emoji name in it'],
  ['transportation', 'mdi-car', 'tag "Transportation + Road" only'],
  ['holiday', 'mdi-bat', 'tag "Holiday" only (a Halloween bat)'],
  ['a', 'mdi-alpha-a', 'one letter: whole words only, "Alpha A"'],
];

/** Queries whose whole result list is compared with the model (no typo correction involved). */
const MODEL_QUERIES = ['home', 'arrow left', 'left arrow', 'weather', 'sun cloud', 'chevron d', 'a', 'up', 'smileys', 'transportation', 'cat', 'arrow l'];
/** Misspelt queries: compared with the model given the corrections computed here from ts_stat. */
const TYPO_QUERIES = ['calender', 'serach', 'hoem', 'arow', 'setings', 'arow l'];

const HOSTILE = [
  "'",
  "''",
  '\\',
  '\\\\\'',
  'a & b | !c',
  ':*',
  'home:*',
  '((',
  '))',
  '!',
  '<->',
  'a <-> b',
  '"home"',
  '%',
  '_',
  'home%',
  '🏠',
  '👍🏽',
  'a'.repeat(200),
  'home '.repeat(40),
  '\u0000home',
  '\ud800',
  'ÉCOLE café',
  '日本語',
  '-- DROP TABLE icons;',
  '$1',
  '\t\n\r',
  ' ',
];
const ONLY_PUNCTUATION = ["'", '\\', ':*', '((', '!', '<->', '%', '_', '🏠', '-- ;', ' ', '\t\n'];

interface ModelIcon {
  id: number;
  slug: string;
  name: string;
  popularity: number;
  downloads: number;
  publishedAt: Date;
  style: string;
  colors: string[];
  premium: boolean;
  categorySlug: string;
  categoryName: string;
  keywords: string[];
  tagNames: string[];
  tagSlugs: string[];
}

async function loadModel(prisma: PrismaClient): Promise<ModelIcon[]> {
  const rows = await prisma.$queryRawUnsafe<(Omit<ModelIcon, 'publishedAt'> & { publishedAt: Date | string })[]>(
    `SELECT i.id, i.slug, i.name, i.popularity, i.downloads, i.published_at AS "publishedAt", i.style,
            coalesce(i.colors, '{}') AS colors, i.premium, c.slug AS "categorySlug", i.category_name AS "categoryName",
            coalesce(i.keywords, '{}') AS keywords, coalesce(i.tag_names, '{}') AS "tagNames",
            coalesce((SELECT array_agg(t.slug) FROM icon_tags it JOIN tags t ON t.id = it.tag_id WHERE it.icon_id = i.id), '{}') AS "tagSlugs"
     FROM icons i JOIN categories c ON c.id = i.category_id
     WHERE i.published`,
  );
  return rows.map((row) => ({ ...row, publishedAt: new Date(row.publishedAt) }));
}

// ---- The model: the rules of the README ("Search"), written independently of the SQL. ----

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Every token (short: a whole word; 3+ characters: a word prefix) in the given words. */
function hasToken(token: string, alternatives: string[], list: string[]): boolean {
  if (token.length < 3) return list.includes(token);
  return [token, ...alternatives].some((alternative) => list.some((word) => word.startsWith(alternative)));
}

/** The ordered matches of `q`, given the corrections of its misspelt tokens. */
function modelSearch(icons: ModelIcon[], q: string, corrections = new Map<string, string[]>()): ModelIcon[] {
  const typed = words(q);
  const tokens = [...new Set(typed)];
  const phrase = typed.join(' ');
  const shortToken = tokens.some((token) => token.length < 3);
  const fixedPhrase = corrections.size > 0 ? tokens.map((token) => corrections.get(token)?.[0] ?? token).join(' ') : null;
  const ranked: [ModelIcon, number, number][] = [];
  for (const icon of icons) {
    const name = words(icon.name);
    const nameAndTags = [...name, ...icon.keywords.flatMap(words), ...icon.tagNames.flatMap(words)];
    const all = [...nameAndTags, ...words(icon.categoryName)];
    const lowerName = icon.name.toLowerCase();
    const typedIn = (list: string[]) => tokens.every((token) => hasToken(token, [], list));
    const fixedIn = (list: string[]) => tokens.every((token) => hasToken(token, corrections.get(token) ?? [], list));
    const namePrefix = lowerName.startsWith(phrase);
    const fixedPrefix = fixedPhrase !== null && lowerName.startsWith(fixedPhrase);
    const byName = phrase.length >= 3 && shortToken;
    let tier: number;
    if (namePrefix && (byName || typedIn(all))) tier = lowerName === phrase ? 1 : 2;
    else if (typedIn(all)) tier = typedIn(name) ? 3 : typedIn(nameAndTags) ? 4 : 5;
    else if (fixedPrefix && (byName || fixedIn(all))) tier = lowerName === fixedPhrase ? 6 : 7;
    else if (fixedIn(all)) tier = fixedIn(name) ? 8 : fixedIn(nameAndTags) ? 9 : 10;
    else continue;
    // Whole words before words the query only starts, in the tiers of the typed query.
    const whole = tier <= 2 ? `${lowerName} `.startsWith(`${phrase} `) : tier <= 5 ? tokens.every((token) => name.includes(token)) : true;
    ranked.push([icon, tier, whole ? 0 : 1]);
  }
  ranked.sort(([a, ta, pa], [b, tb, pb]) => ta - tb || pa - pb || a.name.length - b.name.length || b.popularity - a.popularity || a.id - b.id);
  return ranked.map(([icon]) => icon);
}

function modelFilter(icon: ModelIcon, filter: IconFilter): boolean {
  return (
    (filter.category == null || icon.categorySlug === filter.category) &&
    (filter.tag == null || icon.tagSlugs.includes(filter.tag)) &&
    (filter.style == null || icon.style === filter.style) &&
    (filter.color == null || icon.colors.includes(filter.color)) &&
    (filter.license == null || icon.premium === (filter.license === 'premium'))
  );
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const MODEL_SORTS: Record<SortKey, (a: ModelIcon, b: ModelIcon) => number> = {
  popular: (a, b) => b.popularity - a.popularity || a.id - b.id,
  newest: (a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || a.id - b.id,
  downloads: (a, b) => b.downloads - a.downloads || a.id - b.id,
  az: (a, b) => byCodePoint(a.name, b.name) || a.id - b.id,
};

/** Optimal string alignment distance, for the independent typo check. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Corrections by the rules of the README ("Search"), over a vocabulary computed with ts_stat (not the view). */
function modelCorrections(vocabulary: Map<string, number>, q: string): Map<string, string[]> {
  const corrections = new Map<string, string[]>();
  for (const token of new Set(words(q))) {
    if (token.length < 4 || token.length > 20) continue;
    let matched = 0;
    for (const [word, ndoc] of vocabulary) if (word.startsWith(token)) matched += ndoc;
    if (matched >= 100) continue;
    const candidates = [...vocabulary].filter(([word]) => word !== token && editDistance(token, word) === 1);
    const best = Math.max(0, ...candidates.map(([, ndoc]) => ndoc));
    const kept = candidates
      .filter(([, ndoc]) => ndoc > 10 * matched && ndoc * 10 >= best)
      .sort(([wa, na], [wb, nb]) => nb - na || byCodePoint(wa, wb))
      .map(([word]) => word);
    if (kept.length > 0) corrections.set(token, kept);
  }
  return corrections;
}

async function allPages(reads: Reads, request: Omit<SearchRequest, 'page'>) {
  const ids: number[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const result = await searchIconIds(reads, { ...request, page });
    totals.add(result.total);
    if (result.ids.length === 0) break;
    expect(result.ids.length).toBeLessThanOrEqual(request.perPage);
    ids.push(...result.ids);
  }
  return { ids, totals: [...totals] };
}

describe('search query parsing', () => {
  it('keeps letters and digits, lower-cased, and drops everything else', () => {
    expect(parseQuery('  Arrow-LEFT  ')).toEqual({ tokens: ['arrow', 'left'], phrase: 'arrow left' });
    expect(parseQuery("a & b | !c:* 'x'")).toEqual({ tokens: ['a', 'b', 'c', 'x'], phrase: 'a b c x' });
    expect(parseQuery('home home').tokens).toEqual(['home']);
    for (const text of ONLY_PUNCTUATION) expect(parseQuery(text).tokens).toEqual([]);
  });

  it('lists every string one edit away, and nothing else', () => {
    const variants = oneEditVariants('arow');
    expect(variants).toEqual(expect.arrayContaining(['arrow', 'row', 'aorw', 'brow', 'arom']));
    expect(variants).not.toContain('arow');
    for (const variant of variants) expect(editDistance('arow', variant)).toBe(1);
    expect(new Set(variants).size).toBe(variants.length);
    // Edits are of code points: no variant of a token with an emoji splits its surrogate pair.
    const astral = oneEditVariants('x😀yz');
    expect(astral).toEqual(expect.arrayContaining(['😀yz', 'xyz', 'x😀zy', 'xa😀yz', 'x😀😀yz']));
    expect(astral.filter((variant) => /\p{Cs}/u.test(variant))).toEqual([]);
  });
});

const pgSkip = await postgresUnavailable();

describe.each(CATALOGUE_KINDS)('search on the demo catalogue on %s', (kind) => {
  const skip = kind === 'postgres' && Boolean(pgSkip);
  let database: TestDatabase;
  let prisma: PrismaClient;
  let reads: Reads;
  let icons: ModelIcon[];
  let bySlug: Map<string, ModelIcon>;
  let vocabulary: Map<string, number>;

  beforeAll(async () => {
    if (skip) return;
    // A copy of the catalogue the global setup imported (the importer refreshed the search vocabulary).
    database = await createCatalogueCopy(kind);
    prisma = database.db.prisma;
    reads = database.db.reads;
    icons = await loadModel(prisma);
    bySlug = new Map(icons.map((icon) => [icon.slug, icon]));
    const stats = await prisma.$queryRawUnsafe<{ word: string; ndoc: number }[]>(
      `SELECT word, ndoc FROM ts_stat('SELECT search FROM public.icons WHERE published')`,
    );
    vocabulary = new Map(stats.map((row) => [row.word, Number(row.ndoc)]));
  });
  afterAll(async () => {
    await database?.drop();
  });

  const page = (q: string, extra: Partial<SearchRequest> = {}) => searchIconIds(reads, { q, page: 1, perPage: 5, ...extra });
  /** A page statement's ids, read as searchIconIds reads a relevance page without filters: planned once (on PostgreSQL, a generic plan). */
  const pageIds = async (sql: Prisma.Sql) => (await reads.rows<{ id: number }>('search_page', sql, { genericPlan: true })).map((row) => Number(row.id));

  for (const [query, expected, why] of QUALITY) {
    it.skipIf(skip)(`quality: ${query} -> ${expected} in the top 5 (${why})`, async () => {
      expect(bySlug.has(expected)).toBe(true);
      const { ids } = await page(query);
      expect(ids).toContain(bySlug.get(expected)!.id);
    });
  }

  it.skipIf(skip)('plans a relevance page without filters once for every value (genericPlan), and a sorted or filtered page for its values', async () => {
    const planned: { name: string; generic: boolean; forValues: boolean }[] = [];
    const recording: Reads = {
      rows: (name, statement, options) => {
        if (name === 'search_page' || name === 'search_counted') planned.push({ name, generic: options?.genericPlan === true, forValues: options?.planForValues === true });
        return reads.rows(name, statement, options);
      },
    };
    const planning = async (request: Partial<SearchRequest> & { q: string }) => {
      planned.length = 0;
      await searchIconIds(recording, { page: 1, perPage: 10, ...request });
      expect(planned.length).toBeGreaterThan(0);
      return planned.map(({ generic, forValues }) => (generic && !forValues ? 'once' : !generic && forValues ? 'for values' : 'both?'));
    };
    for (const q of ['home', 'arow', 'arrow left', 'zzzzqqq']) expect(await planning({ q })).toEqual(['once']);
    expect(await planning({ q: 'home', sort: 'newest' })).toEqual(['for values']);
    expect(await planning({ q: 'home', filter: { style: 'outline' } })).toEqual(['for values']);
    // Walked pages and pages with candidates too (the demo catalogue has no word on enough icons to walk: the walk tests below run theirs the same way).
    expect(planFitsEveryValue({ page: 3, perPage: 100 })).toBe(true);
    expect(planFitsEveryValue({ page: 1, perPage: 10, sort: 'az' })).toBe(false);
    expect(planFitsEveryValue({ page: 1, perPage: 10, filter: { license: 'premium' } })).toBe(false);
  });

  it.skipIf(skip)('category and tag queries return icons of that category or tag (or keyword)', async () => {
    const checks: [string, (icon: ModelIcon) => boolean][] = [
      ['smileys', (icon) => icon.categorySlug === 'smileys-emotion'],
      ['transportation', (icon) => icon.tagSlugs.some((slug) => slug.startsWith('transportation'))],
      // mdi-caravan has no Holiday tag but an alias with the word (a keyword).
      ['holiday', (icon) => icon.tagSlugs.includes('holiday') || icon.keywords.some((keyword) => keyword.startsWith('holiday'))],
    ];
    const byId = new Map(icons.map((icon) => [icon.id, icon]));
    for (const [query, belongs] of checks) {
      const { ids } = await page(query, { perPage: 20 });
      expect(ids.length).toBe(20);
      for (const id of ids) expect(belongs(byId.get(id)!)).toBe(true);
    }
  });

  it.skipIf(skip)('home: exact names first, then longer names starting with it: the word home before home as a prefix ("Home Eco" before "Homebrew"), shorter first', async () => {
    const { ids, totals } = await allPages(reads, { q: 'home', perPage: 50 });
    const byId = new Map(icons.map((icon) => [icon.id, icon]));
    const names = ids.map((id) => byId.get(id)!.name);
    const exact = names.filter((name) => name === 'Home').length;
    expect(exact).toBeGreaterThanOrEqual(2);
    expect(names.slice(0, exact).every((name) => name === 'Home')).toBe(true);
    const rest = names.slice(exact).findIndex((name) => !name.toLowerCase().startsWith('home'));
    expect(rest).toBeGreaterThan(0);
    const prefixed = exact + rest;
    const wholeWord = names.slice(exact, prefixed).findIndex((name) => !name.toLowerCase().startsWith('home '));
    expect(wholeWord).toBeGreaterThan(0);
    expect(names.slice(exact + wholeWord, prefixed).every((name) => !name.toLowerCase().startsWith('home '))).toBe(true);
    expect(names.slice(exact + wholeWord, prefixed).length).toBeGreaterThan(0);
    for (let i = exact + 1; i < prefixed; i++) {
      if (i !== exact + wholeWord) expect(names[i]!.length).toBeGreaterThanOrEqual(names[i - 1]!.length);
    }
    expect(names.slice(prefixed).every((name) => !name.toLowerCase().startsWith('home'))).toBe(true);
    // Equal names: more popular first, then lower id.
    const homes = ids.slice(0, exact).map((id) => byId.get(id)!);
    expect(homes).toEqual([...homes].sort(MODEL_SORTS.popular));
    expect(totals).toEqual([ids.length]);
  });

  it.skipIf(skip)('the whole relevance order equals the model, page after page', async () => {
    for (const q of MODEL_QUERIES) {
      const expected = modelSearch(icons, q).map((icon) => icon.slug);
      expect(expected.length, q).toBeGreaterThan(0);
      const { ids, totals } = await allPages(reads, { q, perPage: 97 });
      const slugs = ids.map((id) => icons.find((icon) => icon.id === id)?.slug ?? `unpublished ${id}`);
      expect(slugs, q).toEqual(expected);
      expect(totals, q).toEqual([expected.length]);
    }
  });

  it.skipIf(skip)('the totals the refresh keeps for the commonest one-word searches equal the model, in any case and with or without filters', async () => {
    const kept = await prisma.searchTermTotal.findMany({ orderBy: { token: 'asc' } });
    // The demo catalogue has a few dozen tokens whose words occur in 10,000 icons or more: `has`, `padding`, their prefixes.
    expect(kept.length).toBeGreaterThan(5);
    expect(new Set(kept.map((row) => row.catalogueVersion))).toEqual(new Set([(await prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version]));
    for (const { token, icons: total } of kept) {
      const expected = modelSearch(icons, token).length;
      expect(total, token).toBe(expected);
      expect((await page(token.toUpperCase())).total, token).toBe(expected);
    }
    // A typo that starts no word, corrected to one kept word only, has that word's total (pqadding -> padding).
    const typos = kept
      .filter(({ token }) => token.length >= 5 && vocabulary.has(token))
      .map(({ token }) => `${token[0]}q${token.slice(1)}`)
      .filter((typo) => ![...vocabulary.keys()].some((word) => word.startsWith(typo)) && modelCorrections(vocabulary, typo).get(typo)?.length === 1);
    expect(typos.length).toBeGreaterThan(0);
    for (const typo of typos) {
      expect((await page(typo)).total, typo).toBe(modelSearch(icons, typo, modelCorrections(vocabulary, typo)).length);
    }
    const [first] = kept;
    const filtered = await page(first!.token, { filter: { style: 'bold' } });
    expect(filtered.total).toBe(modelSearch(icons, first!.token).filter((icon) => modelFilter(icon, { style: 'bold' })).length);
  });

  it.skipIf(skip)('misspelt queries: corrections and order equal the model over a ts_stat vocabulary', async () => {
    for (const q of TYPO_QUERIES) {
      const corrections = modelCorrections(vocabulary, q);
      expect(corrections.size, q).toBeGreaterThan(0);
      const expected = modelSearch(icons, q, corrections).map((icon) => icon.slug);
      const { ids, totals } = await allPages(reads, { q, perPage: 250 });
      const slugs = ids.map((id) => icons.find((icon) => icon.id === id)?.slug ?? `unpublished ${id}`);
      expect(slugs, q).toEqual(expected);
      expect(totals, q).toEqual([expected.length]);
    }
  });

  it.skipIf(skip)('a correctly spelt word is not corrected', async () => {
    // What the search answers, in full, is the model's answer without any correction.
    for (const q of ['home', 'search', 'calendar', 'arrow']) {
      const expected = modelSearch(icons, q).map((icon) => icon.slug);
      expect(expected.length, q).toBeGreaterThan(0);
      const { ids, totals } = await allPages(reads, { q, perPage: 250 });
      expect(ids.map((id) => icons.find((icon) => icon.id === id)?.slug ?? `unpublished ${id}`), q).toEqual(expected);
      expect(totals, q).toEqual([expected.length]);
    }
  });

  it.skipIf(skip)('filters and sorts combined with search equal the model', async () => {
    const filters: IconFilter[] = [
      {},
      { style: 'bold' },
      { style: 'outline' },
      { category: 'arrows' },
      { tag: 'weather' },
      { color: 'red' },
      { color: 'monochrome', license: 'free' },
      { license: 'premium' },
      { category: 'no-such-category' },
    ];
    const sorts: (SortKey | null)[] = [null, 'popular', 'newest', 'downloads', 'az'];
    for (const q of ['arrow', 'home', 'sun cloud', 'calender']) {
      const corrections = modelCorrections(vocabulary, q);
      const relevance = modelSearch(icons, q, corrections);
      for (const filter of filters) {
        const matching = relevance.filter((icon) => modelFilter(icon, filter));
        for (const sort of sorts) {
          const expected = (sort ? [...matching].sort(MODEL_SORTS[sort]) : matching).map((icon) => icon.id);
          const label = `${q} ${JSON.stringify(filter)} ${sort}`;
          for (const pageNumber of [1, 3]) {
            const result = await searchIconIds(reads, { q, filter, sort, page: pageNumber, perPage: 24 });
            expect(result.total, label).toBe(expected.length);
            expect(result.ids, `${label} page ${pageNumber}`).toEqual(expected.slice((pageNumber - 1) * 24, pageNumber * 24));
          }
        }
      }
    }
  });

  it.skipIf(skip)('a one-word search that walks the documents in rank order returns the pages of ranking every match', async () => {
    // On the full catalogue only words of 10,000+ icons walk, 2,000+ documents; here every walk
    // length from one document to all of them, so that each way of building the page is taken:
    // the walk alone, the name tier then the walk, and after a short walk the second tier through
    // its index (icon_search_documents_tagged_idx), with the last tier or without it.
    const current = await loadVocabulary(reads);
    // Words whose name tier is mostly whole words or not (line, round), whose tags and categories
    // both match (home, face, automation, weather), or only a category (smileys); and typos of them.
    const queries = ['arrow', 'line', 'round', 'point', 'home', 'face', 'automation', 'weather', 'smileys', 'arow', 'wether', 'shoping', 'automaton', 'rond'];
    for (const q of queries) {
      const plan = planSearch(parseQuery(q), current)!;
      const expected = modelSearch(icons, q, modelCorrections(vocabulary, q)).map((icon) => icon.id);
      for (const rows of [1, 10, 40, 150, 600, 2_000, 6_000, 1_000_000]) {
        for (const [pageNumber, perPage] of [[1, 5], [1, 24], [4, 24], [2, 100]] as const) {
          const sql = searchPageSql(plan, { page: pageNumber, perPage }, { walkSettings: { minMatches: 0, rowsPerRowNeeded: 0, minRows: rows, maxRows: rows } });
          expect(sql.text).toContain('_walk');
          const ids = await pageIds(sql);
          expect(ids, `${q}, walk of ${rows}, page ${pageNumber} of ${perPage}`).toEqual(expected.slice((pageNumber - 1) * perPage, pageNumber * perPage));
        }
      }
    }
  });

  it.skipIf(skip)('a one-word search whose tiers start from the shortest names the list index found returns the pages of ranking every match', async () => {
    // Walks of one document, so that the name tier and the next are what the candidates prove or
    // not: names mostly whole words or not (line, round), prefixes (circ, arro, automat), words mostly in tags
    // or categories (face, automation, weather, smileys), typos (arow, rond, wether, shoping).
    // Each with a few candidates or many, found at the catalogue's version, at an older one (the
    // statement must not trust them), and a wrong list at an older version.
    const current = await loadVocabulary(reads);
    const index = listIndexOf(reads);
    await index.build();
    let incomplete = 0;
    let wholeWordsHeld = 0;
    for (const q of ['line', 'round', 'circ', 'arro', 'automat', 'arrow', 'home', 'face', 'automation', 'weather', 'smileys', 'arow', 'rond', 'wether', 'shoping']) {
      const plan = planSearch(parseQuery(q), current)!;
      const [terms] = matchQueryOf(plan);
      const expected = modelSearch(icons, q, modelCorrections(vocabulary, q)).map((icon) => icon.id);
      for (const wanted of [1, 8, 30, 400]) {
        const most = Math.max(3 * wanted, 20);
        const candidates = (terms: readonly MatchTerm[]): TierCandidates => ({
          name: index.nameCandidates([terms], 'name', wanted, most),
          tagged: index.nameCandidates([terms], 'nameOrTags', wanted, most),
          rest: index.nameCandidates([terms], 'any', wanted, most),
        });
        const words = candidates(terms!.slice(0, 1));
        const fixedRest = candidates(terms!);
        const found = [words, fixedRest].flatMap(({ name, tagged, rest }) => [name, tagged, rest]).filter((tier) => tier !== undefined);
        if (found.length === 0) continue;
        const version = (await prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;
        const older = (found: NamedIcons | undefined) => found && { ...found, version: found.version - 1 };
        const olderTiers = ({ name, tagged, rest }: TierCandidates) => ({ name: older(name), tagged: older(tagged), rest: older(rest) });
        const wrong = { ids: expected.slice(-3), complete: true, holdsWholeWords: true, version: Number(version) - 1 };
        const variants: [string, NamedSegments][] = [
          ['current', { words, fixedRest }],
          ['older', { words: olderTiers(words), fixedRest: olderTiers(fixedRest) }],
          ['wrong', { words: { name: wrong, tagged: wrong, rest: wrong }, fixedRest: { name: wrong, tagged: { ...wrong, ids: [] }, rest: wrong } }],
        ];
        for (const [variant, named] of variants) {
          for (const [pageNumber, perPage] of [[1, 5], [1, 24], [3, 10]] as const) {
            const sql = searchPageSql(plan, { page: pageNumber, perPage }, { walkSettings: { minMatches: 0, rowsPerRowNeeded: 0, minRows: 1, maxRows: 1 }, named });
            expect(sql.text).toContain('_shortest');
            const ids = await pageIds(sql);
            expect(ids, `${q}, ${wanted} wanted, ${variant}, page ${pageNumber} of ${perPage}`).toEqual(expected.slice((pageNumber - 1) * perPage, pageNumber * perPage));
            if (variant === 'current') incomplete += found.filter((tier) => !tier.complete).length;
            if (variant === 'current' && words.name && !words.name.complete && words.name.holdsWholeWords) wholeWordsHeld++;
          }
        }
      }
    }
    expect(incomplete).toBeGreaterThan(60);
    expect(wholeWordsHeld).toBeGreaterThan(5);
  });

  it.skipIf(skip)('a phrase whose tiers start from the shortest names holding every word returns the pages of ranking every match', async () => {
    // Phrases whose words are whole words of the names or only start them (arrow left, arro lef),
    // in either order, one word mostly in tags or categories (home weather, sun cloud), a short word
    // (arrow l: names start with the phrase), and typos, whose matches with corrections (fixed_rest)
    // start from the names holding a word or a correction of each (arow left, wether sun, arow circle).
    // Each with a few candidates or many, at the catalogue's version, at an older one, and wrong.
    const current = await loadVocabulary(reads);
    const index = listIndexOf(reads);
    await index.build();
    const found = { incomplete: 0, complete: 0, corrected: 0 };
    const queries = ['arrow left', 'left arrow', 'arro lef', 'arrow circle', 'circle arrow', 'home weather', 'sun cloud', 'cloud sun', 'arrow l', 'chevron down', 'line arrow', 'arow left', 'wether sun', 'arow circle'];
    for (const q of queries) {
      const plan = planSearch(parseQuery(q), current)!;
      const query = matchQueryOf(plan);
      const expected = modelSearch(icons, q, modelCorrections(vocabulary, q)).map((icon) => icon.id);
      for (const wanted of [1, 8, 30, 400]) {
        const most = Math.max(3 * wanted, 20);
        const tiers = (query: MatchQuery): TierCandidates => ({
          name: index.nameCandidates(query, 'name', wanted, most),
          tagged: index.nameCandidates(query, 'nameOrTags', wanted, most),
          rest: index.nameCandidates(query, 'any', wanted, most),
        });
        const words = tiers(query.map((terms) => terms.slice(0, 1)));
        const fixedRest = plan.fixedPhrase === null ? undefined : tiers(query);
        if (!words.name || (fixedRest && !fixedRest.name)) continue;
        const version = (await prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;
        const older = (found: NamedIcons | undefined) => found && { ...found, version: found.version - 1 };
        const olderTiers = (tiers: TierCandidates | undefined) => tiers && { name: older(tiers.name), tagged: older(tiers.tagged), rest: older(tiers.rest) };
        const wrong = { ids: expected.slice(-3), complete: true, holdsWholeWords: true, version: Number(version) - 1 };
        const wrongTiers = { name: wrong, tagged: { ...wrong, ids: [] }, rest: wrong };
        const variants: [string, NamedSegments][] = [
          ['current', { words, fixedRest }],
          ['older', { words: olderTiers(words), fixedRest: olderTiers(fixedRest) }],
          ['wrong', { words: wrongTiers, fixedRest: fixedRest && wrongTiers }],
        ];
        for (const [variant, named] of variants) {
          for (const [pageNumber, perPage] of [[1, 5], [1, 24], [3, 10]] as const) {
            const sql = searchPageSql(plan, { page: pageNumber, perPage }, { named });
            expect(sql.text).toContain('words_name_shortest');
            if (fixedRest) expect(sql.text).toContain('fixed_rest_name_shortest');
            const ids = await pageIds(sql);
            expect(ids, `${q}, ${wanted} wanted, ${variant}, page ${pageNumber} of ${perPage}`).toEqual(expected.slice((pageNumber - 1) * perPage, pageNumber * perPage));
          }
        }
        for (const tier of [words, fixedRest].flatMap((tiers) => (tiers ? [tiers.name, tiers.tagged, tiers.rest] : []))) {
          if (tier) found[tier.complete ? 'complete' : 'incomplete']++;
        }
        if (fixedRest) found.corrected++;
      }
    }
    expect(found.incomplete).toBeGreaterThan(20);
    expect(found.complete).toBeGreaterThan(20);
    expect(found.corrected).toBeGreaterThan(5);
  });

  it.skipIf(skip)("makes a lexeme of every run of letters and digits between a name's spaces (what the name tier's candidates rely on)", async () => {
    const [row] = await prisma.$queryRawUnsafe<{ runs: number; not_lexemes: number }[]>(
      `SELECT count(*)::int AS runs, count(*) FILTER (WHERE NOT (w = ANY (tsvector_to_array(to_tsvector('simple', d.name)))))::int AS not_lexemes
        FROM icon_search_documents d, unnest(string_to_array(lower(d.name COLLATE "C"), ' ')) w WHERE w ~ '^[[:alnum:]]+$'`,
    );
    expect(row!.runs).toBeGreaterThan(10_000);
    expect(row!.not_lexemes).toBe(0);
  });

  it.skipIf(skip)('pages return every match exactly once, in every order', async () => {
    for (const sort of [null, 'popular', 'az'] as const) {
      for (const q of ['arrow', 'arow', 'chevron d']) {
        const { ids, totals } = await allPages(reads, { q, sort, perPage: 37 });
        expect(new Set(ids).size, `${q} ${sort}`).toBe(ids.length);
        expect(totals, `${q} ${sort}`).toEqual([ids.length]);
        const whole = await searchIconIds(reads, { q, sort, page: 1, perPage: ids.length + 10 });
        expect(whole.ids, `${q} ${sort}`).toEqual(ids);
      }
    }
  });

  it.skipIf(skip)('a page past the end is empty and still carries the total', async () => {
    const first = await page('home');
    const beyond = await searchIconIds(reads, { q: 'home', page: 10_000, perPage: 24 });
    expect(beyond).toEqual({ ids: [], total: first.total });
  });

  it.skipIf(skip)('never returns unpublished icons', async () => {
    const [hidden] = await prisma.$queryRawUnsafe<{ id: number; name: string }[]>(
      `SELECT id, name FROM icons WHERE NOT published ORDER BY id LIMIT 1`,
    );
    expect(hidden).toBeDefined();
    const { ids } = await searchIconIds(reads, { q: hidden!.name, page: 1, perPage: 1000 });
    expect(ids).not.toContain(hidden!.id);
  });

  it.skipIf(skip)('hostile input returns a page without throwing; only punctuation returns nothing', async () => {
    for (const q of HOSTILE) {
      for (const sort of [null, 'az'] as const) {
        const result = await searchIconIds(reads, { q, sort, page: 1, perPage: 10 });
        expect(Array.isArray(result.ids), JSON.stringify(q)).toBe(true);
        expect(result.total, JSON.stringify(q)).toBeGreaterThanOrEqual(result.ids.length);
      }
    }
    for (const q of ONLY_PUNCTUATION) expect(await page(q), JSON.stringify(q)).toEqual({ ids: [], total: 0 });
    // Operators are separators: `home:*` is `home`, `a & b | !c` is `a b c`.
    expect(await page('home:*')).toEqual(await page('home'));
    expect(await page('"arrow" & (left)')).toEqual(await page('arrow left'));
  });
});
