// The routes of issue 14 over a real socket, on a copy of the demo catalogue in embedded
// PGlite with in-memory rate limits: /sets, the `set` filter, attribution on every item,
// several icons by ids= or slugs=, /usage from the rate limiter's own count, and RFC 8288
// Link headers on paged responses; each through REST and through /graphql of the same gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies, each assertion reads the shape it needs
type Json = any;

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;
let ownerKey: string;
let ownedSlug: string;
let ownedId: number;

beforeAll(async () => {
  delete process.env.REDIS_URL; // memory store for this suite
  database = await createCatalogueCopy('pglite');
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'routes-reader', hourlyLimit: 100_000 })).key;
  ownerKey = (await createApiKey(prisma, { accountName: 'routes-owner', hourlyLimit: 50_000 })).key;
  const premium = await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } });
  ownedSlug = premium.slug;
  ownedId = premium.id;
  await grantIcons(prisma, 'routes-owner', [ownedSlug]);
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

async function get(path: string, apiKey = key, method = 'GET') {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { 'x-api-key': apiKey } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Json) : undefined };
}

async function graphql(query: string, apiKey = key) {
  const response = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
}

function expect400(response: { status: number; json: Json }, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.json).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
}

const SET_KEYS = ['prefix', 'name', 'author', 'author_url', 'license', 'license_spdx', 'license_url', 'attribution_required', 'premium', 'icon_count', 'samples'].sort();

describe('GET /sets', () => {
  it('lists every set by name with its author, license, attribution rule, published icon count and four sample icons', async () => {
    const { status, json, headers } = await get('/sets');
    expect(status).toBe(200);
    const sets = await database.db.prisma.iconSet.findMany({ orderBy: [{ name: 'asc' }, { prefix: 'asc' }] });
    expect(json.data.map((set: Json) => set.prefix)).toEqual(sets.map((set) => set.prefix));
    for (const set of json.data) {
      expect(Object.keys(set).sort()).toEqual(SET_KEYS);
      const row = sets.find((s) => s.prefix === set.prefix)!;
      expect(set).toMatchObject({ name: row.name, author: row.author, author_url: row.authorUrl, license: row.licenseTitle, license_spdx: row.licenseSpdx, premium: row.premium });
      expect(set.attribution_required).toBe(row.licenseSpdx !== 'CC0-1.0');
      expect(set.icon_count).toBe(await database.db.prisma.icon.count({ where: { setId: row.id, published: true } }));
      const samples = await database.db.prisma.icon.findMany({ where: { setId: row.id, published: true }, orderBy: { sourceName: 'asc' }, take: 4 });
      expect(set.samples.map((icon: Json) => icon.id)).toEqual(samples.map((icon) => icon.id));
      for (const icon of set.samples) expect(icon.svg).toBeUndefined();
    }
    expect(json.data.some((set: Json) => set.attribution_required === false)).toBe(true);
    expect(headers.get('x-cache')).toBe('MISS');
    expect((await get('/sets', ownerKey)).headers.get('x-cache')).toBe('HIT'); // one copy for every caller
    expect(headers.get('link')).toBeNull();
  });

  it('answers the same through GraphQL', async () => {
    const { json } = await graphql('{ sets { prefix attributionRequired iconCount samples { slug } } }');
    const rest = (await get('/sets')).json.data;
    expect(json.data.sets).toEqual(rest.map((set: Json) => ({ prefix: set.prefix, attributionRequired: set.attribution_required, iconCount: set.icon_count, samples: set.samples.map((icon: Json) => ({ slug: icon.slug })) })));
  });
});

describe('the set filter', () => {
  it('keeps /icons and /search to the sets named, one or several', async () => {
    const { prisma } = database.db;
    const [mdi, tabler] = await Promise.all(['mdi', 'tabler'].map((prefix) => prisma.iconSet.findUniqueOrThrow({ where: { prefix } })));
    const count = (setIds: number[]) => prisma.icon.count({ where: { published: true, setId: { in: setIds } } });
    const one = await get('/icons?set=mdi&per_page=100');
    expect(one.json.meta.total).toBe(await count([mdi!.id]));
    for (const icon of one.json.data) expect(icon.slug).toMatch(/^mdi-/);
    const two = await get('/icons?set=mdi,%20tabler&per_page=5');
    expect(two.json.meta.total).toBe(await count([mdi!.id, tabler!.id]));
    const search = await get('/search?q=home&set=tabler&per_page=100');
    expect(search.json.meta.total).toBeGreaterThan(0);
    for (const icon of search.json.data) expect(icon.slug).toMatch(/^tabler-/);
    expect((await get('/search?q=home&per_page=100')).json.meta.total).toBeGreaterThan(search.json.meta.total);
    expect((await get('/icons?set=no-such-set')).json.meta.total).toBe(0);
    const viaGraphql = await graphql('{ search(q: "home", filter: { set: ["tabler"] }, perPage: 100) { meta { total } } }');
    expect(viaGraphql.json.data.search.meta.total).toBe(search.json.meta.total);
  });

  it('refuses an empty prefix in the list, too many prefixes, or control characters, saying which', async () => {
    expect400(await get('/icons?set=mdi,,tabler'), /^set must not have an empty value/);
    expect400(await get(`/icons?set=${Array.from({ length: 51 }, (_, i) => `s${i}`).join(',')}`), /^set must list at most 50 values \(got 51\)/);
    expect400(await get('/search?q=home&set=mdi,%01x'), /^set must not contain control characters/);
    const viaGraphql = await graphql('{ icons(filter: { set: [] }) { meta { total } } }');
    expect(viaGraphql.json.errors[0]).toMatchObject({ message: 'filter.set must list at least one set prefix', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('attribution', () => {
  it('is on every list, search and single-icon item: "<name> by <author>, <license>", null where the license asks none', async () => {
    const sets = new Map((await database.db.prisma.iconSet.findMany()).map((set) => [set.prefix, set]));
    const items = [...(await get('/icons?per_page=100&sort=az')).json.data, ...(await get('/search?q=logo&per_page=100')).json.data, (await get('/icons/mdi-home')).json.data];
    const prefixes = new Set<string>();
    for (const item of items) {
      const set = [...sets.values()].find((s) => item.slug.startsWith(`${s.prefix}-`))!;
      prefixes.add(set.prefix);
      expect(item.attribution).toBe(set.licenseSpdx === 'CC0-1.0' ? null : `${item.name} by ${set.author}, ${set.licenseTitle}`);
    }
    expect((await get('/icons/mdi-home')).json.data.attribution).toBe('Home by Pictogrammers, Apache 2.0');
    expect(prefixes.has('logos')).toBe(true); // a CC0 set: null
  });
});

describe('several icons in one request: ids= and slugs=', () => {
  it('gives the icons in the order asked, reports the ones not found, and applies the lists’ premium rule', async () => {
    const { prisma } = database.db;
    const unpublished = await prisma.icon.findFirstOrThrow({ where: { premium: false }, orderBy: { id: 'desc' } });
    await prisma.icon.update({ where: { id: unpublished.id }, data: { published: false } });
    try {
      const [a, b] = await prisma.icon.findMany({ where: { published: true, premium: false }, orderBy: { id: 'asc' }, take: 2, skip: 10 });
      const byIds = await get(`/icons?ids=${b!.id},999999999,${ownedId},${a!.id},${unpublished.id}&include_svg=1`, ownerKey);
      expect(byIds.status).toBe(200);
      expect(byIds.json.data.map((icon: Json) => icon.id)).toEqual([b!.id, ownedId, a!.id]);
      expect(byIds.json.meta).toEqual({ next_cursor: null, page: 1, per_page: 5, total: 3, total_pages: 1, missing: ['999999999', String(unpublished.id)] });
      // Markup for free icons only, as in every list, even for the premium icon's owner.
      expect(byIds.json.data.map((icon: Json) => icon.svg === null)).toEqual([false, true, false]);
      const bySlugs = await get(`/icons?slugs=${a!.slug},nope,${b!.slug}`);
      expect(bySlugs.json.data.map((icon: Json) => icon.slug)).toEqual([a!.slug, b!.slug]);
      expect(bySlugs.json.meta.missing).toEqual(['nope']);
      const viaGraphql = await graphql(`{ icons(slugs: ["${b!.slug}", "nope"]) { data { slug attribution } meta { total missing } } }`);
      expect(viaGraphql.json.data.icons).toEqual({ data: [{ slug: b!.slug, attribution: expect.any(String) }], meta: { total: 1, missing: ['nope'] } });
    } finally {
      await prisma.icon.update({ where: { id: unpublished.id }, data: { published: true } });
    }
  });

  it('refuses more than 100, both lists, a filter beside them, and values that are not ids, saying which', async () => {
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect400(await get(`/icons?ids=${many}`), /^ids must list at most 100 values \(got 101\)/);
    expect(await get(`/icons?ids=${Array.from({ length: 100 }, (_, i) => i + 1).join(',')}`)).toMatchObject({ status: 200 });
    expect400(await get('/icons?ids=1,2&slugs=a'), /^give ids or slugs, not both/);
    expect400(await get('/icons?ids=1&license=free'), /^ids cannot be combined with filters/);
    expect400(await get('/icons?slugs=a&set=mdi'), /^slugs cannot be combined with filters/);
    expect400(await get('/icons?ids=1,abc'), /^ids must list whole numbers \(got "abc"\)/);
    expect400(await get('/icons?ids=1,99999999999'), /^ids must list whole numbers/);
    expect400(await get('/icons?ids=1,'), /^ids must not have an empty value \(value 2\)/);
    expect400(await get('/icons?slugs=a,%00'), /^slugs must not contain control characters/);
    const viaGraphql = await graphql('{ icons(ids: []) { meta { total } } }');
    expect(viaGraphql.json.errors[0]).toMatchObject({ message: 'ids must list at least one icon', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('GET /usage', () => {
  it('says the limit, remaining and reset of its own rate-limit headers, counts itself, and the owned premium icons', async () => {
    const first = await get('/usage', ownerKey);
    expect(first.status).toBe(200);
    const { data } = first.json;
    expect(Object.keys(data).sort()).toEqual(['limit', 'owned_premium_icons', 'remaining', 'requests_this_hour', 'reset']);
    expect(data.limit).toBe(50_000);
    expect(String(data.limit)).toBe(first.headers.get('x-ratelimit-limit'));
    expect(String(data.remaining)).toBe(first.headers.get('x-ratelimit-remaining'));
    expect(String(data.reset)).toBe(first.headers.get('x-ratelimit-reset'));
    expect(data.requests_this_hour).toBe(data.limit - data.remaining);
    expect(data.owned_premium_icons).toBe(1);
    await get('/categories', ownerKey);
    const second = (await get('/usage', ownerKey)).json.data;
    expect(second.requests_this_hour).toBe(data.requests_this_hour + 2); // /categories, and /usage itself
    expect(second.remaining).toBe(data.remaining - 2);
    expect((await get('/usage')).json.data.owned_premium_icons).toBe(0);
  });

  it('answers through GraphQL from the same count, never from the GraphQL cache', async () => {
    const ask = () => graphql('{ usage { limit remaining requestsThisHour ownedPremiumIcons } }', ownerKey);
    const first = await ask();
    const second = await ask();
    expect(first.json.data.usage.ownedPremiumIcons).toBe(1);
    expect(String(second.json.data.usage.remaining)).toBe(second.headers.get('x-ratelimit-remaining'));
    expect(second.json.data.usage.requestsThisHour).toBe(first.json.data.usage.requestsThisHour + 1);
  });
});

describe('Link headers on paged responses', () => {
  const links = (header: string | null): Record<string, string> =>
    Object.fromEntries(
      (header ?? '')
        .split(', ')
        .filter(Boolean)
        .map((link) => {
          const [, target, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(link)!;
          return [rel!, target!];
        }),
    );
  const pageOf = (target: string) => Number(new URLSearchParams(target.split('?')[1]).get('page'));

  it('gives first, prev, next and last, keeping the request’s other parameters', async () => {
    const response = await get('/icons?per_page=5&page=3&style=bold&utm=x');
    const totalPages = response.json.meta.total_pages;
    expect(totalPages).toBeGreaterThan(4);
    const found = links(response.headers.get('link'));
    expect(Object.keys(found).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(Object.fromEntries(Object.entries(found).map(([rel, target]) => [rel, pageOf(target)]))).toEqual({ first: 1, prev: 2, next: 4, last: totalPages });
    for (const target of Object.values(found)) {
      expect(target).toMatch(/^\/icons\?/);
      expect(new URLSearchParams(target.split('?')[1]).get('style')).toBe('bold');
      expect(new URLSearchParams(target.split('?')[1]).get('utm')).toBe('x');
    }
    // The next link leads to the next page.
    const next = await get(found.next!);
    expect(next.json.meta.page).toBe(4);
  });

  it('leaves out prev on the first page and next on the last, makes last 1 when nothing matches, and is on /search, HEAD and cache hits', async () => {
    expect(Object.keys(links((await get('/icons?per_page=100')).headers.get('link'))).sort()).toEqual(['first', 'last', 'next']);
    const none = links((await get('/icons?category=nothing-here')).headers.get('link'));
    expect(Object.fromEntries(Object.entries(none).map(([rel, target]) => [rel, pageOf(target)]))).toEqual({ first: 1, last: 1 });
    const past = links((await get('/search?q=home&page=9999')).headers.get('link'));
    expect(Object.keys(past).sort()).toEqual(['first', 'last', 'prev']);
    expect(pageOf(past.prev!)).toBe(pageOf(past.last!));
    const head = await get('/search?q=home&per_page=2', key, 'HEAD');
    expect(links(head.headers.get('link')).next).toBe('/search?q=home&per_page=2&page=2');
    const hit = await get('/search?q=home&per_page=2&other=1');
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(links(hit.headers.get('link')).next).toBe('/search?q=home&per_page=2&other=1&page=2');
    expect((await get(`/icons/${ownedSlug}`, ownerKey)).headers.get('link')).toBeNull();
  });
});

describe('set-level tags', () => {
  it('are not shown as an icon’s tags, and stay filterable and searchable', async () => {
    const home = (await get('/icons/mdi-home')).json.data;
    const shown = home.tags.map((tag: Json) => tag.slug);
    const links = await database.db.prisma.iconTag.findMany({ where: { icon: { slug: 'mdi-home' } }, include: { tag: true } });
    expect(links.filter((link) => link.ofSet).map((link) => link.tag.slug).sort()).toEqual(['has-padding', 'material-design-icons', 'precise-shapes']);
    expect(shown.sort()).toEqual(links.filter((link) => !link.ofSet).map((link) => link.tag.slug).sort());
    const filtered = await get('/icons?tag=precise-shapes&set=mdi&per_page=1');
    expect(filtered.json.meta.total).toBe(await database.db.prisma.icon.count({ where: { published: true, set: { prefix: 'mdi' } } }));
    const searched = await get('/search?q=home%20precise%20shapes&set=mdi&per_page=100');
    expect(searched.json.data.map((icon: Json) => icon.slug)).toContain('mdi-home');
    const graph = await graphql('{ icon(ref: "mdi-home") { tags { slug } } }');
    expect(graph.json.data.icon.tags.map((tag: Json) => tag.slug).sort()).toEqual(shown.sort());
  });
});

describe('GET /icons/{ref}/similar', () => {
  const STYLE_OR_NUMBER = /^(\d+|bold|outline|outlined|linear|broken|duotone|twotone|filled|fill|solid|thin|light|rounded|round|sharp|regular|normal|color|colour)$/;
  const wordsOf = (name: string) => name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

  it('lists the other icons whose names have the concept’s words, the same concept first, then fewer added words', async () => {
    const { status, json, headers } = await get('/icons/mdi-home/similar?per_page=100');
    expect(status).toBe(200);
    const slugs = json.data.map((icon: Json) => icon.slug);
    expect(slugs).not.toContain('mdi-home');
    const published = await database.db.prisma.icon.findMany({ where: { published: true }, select: { name: true, slug: true } });
    const expected = published.filter((icon) => icon.slug !== 'mdi-home' && wordsOf(icon.name).includes('home'));
    expect(json.meta.total).toBe(expected.length);
    const added = json.data.map((icon: Json) => wordsOf(icon.name).filter((word) => word !== 'home' && !STYLE_OR_NUMBER.test(word)).length);
    expect(added).toEqual([...added].sort((a, b) => a - b));
    expect(added[0]).toBe(0);
    // The same concept in another set: Tabler's home has no added word either.
    expect(added[slugs.indexOf('tabler-home')]).toBe(0);
    expect(headers.get('link')).toContain('rel="next"');
    // The style words of the icon are not part of its concept: an outline home finds the plain ones.
    const outline = (await get('/icons/mdi-home-outline/similar?per_page=5')).json.data.map((icon: Json) => icon.slug);
    expect(outline).toContain('mdi-home');
  });

  it('answers the same by id, through GraphQL, and refuses an unknown icon or a bad page', async () => {
    const home = await database.db.prisma.icon.findUniqueOrThrow({ where: { slug: 'mdi-home' } });
    const bySlug = (await get('/icons/mdi-home/similar?per_page=10&page=2')).json;
    expect((await get(`/icons/${home.id}/similar?per_page=10&page=2`)).json).toEqual(bySlug);
    const graph = await graphql('{ similarIcons(ref: "mdi-home", perPage: 10, page: 2) { data { slug } meta { total } } }');
    expect(graph.json.data.similarIcons.data.map((icon: Json) => icon.slug)).toEqual(bySlug.data.map((icon: Json) => icon.slug));
    const missing = await get('/icons/no-such-icon/similar');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: { code: 404, message: expect.any(String) } });
    expect400(await get('/icons/mdi-home/similar?per_page=0'), /per_page/);
  });
});

describe('cursor pages (after)', () => {
  /** A category of a few hundred icons: several pages of 50 in every sort. */
  async function mediumCategory(): Promise<string> {
    const categories = (await get('/categories')).json.data as { slug: string; icon_count: number }[];
    const medium = categories.find((category) => category.icon_count > 150 && category.icon_count < 700);
    expect(medium).toBeDefined();
    return medium!.slug;
  }

  it.each(['popular', 'newest', 'downloads', 'az'])('walks a list sorted %s by cursor through the same icons, in the same order, as by page number', async (sort) => {
    const base = `/icons?category=${await mediumCategory()}&sort=${sort}&per_page=50`;
    const byNumber: number[] = [];
    const first = await get(base);
    for (let page = 1; page <= first.json.meta.total_pages; page++) byNumber.push(...(await get(`${base}&page=${page}`)).json.data.map((icon: Json) => icon.id));
    const byCursor: number[] = [];
    let response = first;
    for (let page = 1; ; page++) {
      expect(response.status).toBe(200);
      expect(response.json.meta.page).toBe(page);
      expect(response.json.meta.total).toBe(first.json.meta.total);
      byCursor.push(...response.json.data.map((icon: Json) => icon.id));
      const cursor = response.json.meta.next_cursor;
      if (page === first.json.meta.total_pages) {
        expect(cursor).toBeNull();
        break;
      }
      expect(cursor).toEqual(expect.any(String));
      response = await get(`${base}&after=${cursor}`);
    }
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(first.json.meta.total);
  });

  it('links the next page by cursor once a request uses one, and by number otherwise', async () => {
    const base = `/icons?category=${await mediumCategory()}&per_page=20`;
    const first = await get(base);
    const linksOf = (header: string | null) => Object.fromEntries(header!.split(', ').map((link) => [/rel="(\w+)"/.exec(link)![1], link.slice(1, link.indexOf('>'))]));
    expect(linksOf(first.headers.get('link')).next).toBe(`${base}&page=2`);
    const second = await get(`${base}&after=${first.json.meta.next_cursor}`);
    const links = linksOf(second.headers.get('link'));
    expect(links.next).toBe(`${base}&after=${second.json.meta.next_cursor}`);
    expect(links.prev).toBe(`${base}&page=1`);
    const third = await get(links.next!);
    expect(third.json.meta.page).toBe(3);
    expect(third.json.data[0].id).toBe((await get(`${base}&page=3`)).json.data[0].id);
  });

  it('refuses a cursor that is not one, or made for another list, and after beside page, ids or slugs', async () => {
    const category = await mediumCategory();
    const cursor = (await get(`/icons?category=${category}&per_page=20`)).json.meta.next_cursor as string;
    expect400(await get('/icons?after=not-a-cursor'), /^after is not a cursor/);
    expect400(await get(`/icons?after=${Buffer.from('[1,"x",2,0.5,1]').toString('base64url')}`), /^after was made for another list/);
    expect400(await get(`/icons?after=${cursor}`), /^after was made for another list/);
    expect400(await get(`/icons?category=${category}&per_page=20&sort=az&after=${cursor}`), /^after was made for another list/);
    expect400(await get(`/icons?category=${category}&per_page=21&after=${cursor}`), /^after was made for another list/);
    expect400(await get(`/icons?category=${category}&per_page=20&page=2&after=${cursor}`), /page or after/);
    expect400(await get(`/icons?ids=1,2&after=${cursor}`), /^after pages through a list/);
    expect400(await get(`/icons?after=${'A'.repeat(1001)}`), /after/);
  });

  it('pages by cursor through GraphQL alike', async () => {
    const category = await mediumCategory();
    const page = (after: string | null) =>
      graphql(`{ icons(filter: { category: "${category}" }, perPage: 30, sort: AZ${after ? `, after: "${after}"` : ''}) { data { id } meta { page nextCursor } } }`);
    const first = (await page(null)).json.data.icons;
    const second = (await page(first.meta.nextCursor)).json.data.icons;
    expect(second.meta.page).toBe(2);
    const rest = (await get(`/icons?category=${category}&per_page=30&sort=az&page=2`)).json.data.map((icon: Json) => icon.id);
    expect(second.data.map((icon: Json) => icon.id)).toEqual(rest);
    const search = await graphql(`{ search(q: "home") { meta { nextCursor } } }`);
    expect(search.json.data.search.meta.nextCursor).toBeNull();
  });
});

describe('GET /suggest', () => {
  it('completes the last word of q, the words reaching the most icons first, and refuses bad input', async () => {
    const { status, json } = await get('/suggest?q=Arrow%20L&limit=3');
    expect(status).toBe(200);
    expect(json.data.length).toBeGreaterThan(0);
    expect(json.data.length).toBeLessThanOrEqual(3);
    for (const item of json.data) {
      expect(Object.keys(item).sort()).toEqual(['icon_count', 'text']);
      expect(item.text).toMatch(/^arrow l/);
    }
    expect(json.data.map((item: Json) => item.icon_count)).toEqual(json.data.map((item: Json) => item.icon_count).sort((a: number, b: number) => b - a));
    expect((await get('/suggest?q=zzzzqq')).json).toEqual({ data: [] });
    expect400(await get('/suggest'), /^q is required/);
    expect400(await get('/suggest?q=home&limit=26'), /^limit must be a whole number from 1 to 25/);
    const viaGraphql = await graphql('{ suggest(q: "Arrow L", limit: 3) { text iconCount } }');
    expect(viaGraphql.json.data.suggest).toEqual(json.data.map((item: Json) => ({ text: item.text, iconCount: item.icon_count })));
  });
});
