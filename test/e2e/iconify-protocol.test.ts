// Iconify's protocol over a real socket, on a copy of the demo catalogue in PostgreSQL (PGlite when
// PostgreSQL is not reachable): icon data as IconifyJSON with aliases resolved as
// @iconify/utils resolves them, not_found, premium icons for their owners' keys only (a key in
// the URL counts for nothing), SVG files with Iconify's customizations built as @iconify/utils
// builds them, stylesheets, the lists (collections, collection, search, last-modified, version),
// the anonymous limit, and 400s in the specification's error body.
import type { IconifyJSON } from '@iconify/types';
import { getIconData, getIconsCSS, iconToHTML, iconToSVG } from '@iconify/utils';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const require = createRequire(import.meta.url);
let database: TestDatabase;
let gateway: RunningGateway;
let ownerKey: string;
let otherKey: string;
let free: { prefix: string; name: string; body: string; width: number; height: number };
let owned: { prefix: string; name: string };
let unowned: { prefix: string; name: string };
/** `prefix:name` of every published premium icon. */
let premiumNames: Set<string>;
let mdiAlias: { name: string; parent: string };
let flippedAlias: { name: string; parent: string };

beforeAll(async () => {
  delete process.env.REDIS_URL;
  database = await createCatalogueCopy('postgres').catch(() => createCatalogueCopy('pglite'));
  const { prisma } = database.db;
  ownerKey = (await createApiKey(prisma, { accountName: 'owner', hourlyLimit: 100_000 })).key;
  otherKey = (await createApiKey(prisma, { accountName: 'other', hourlyLimit: 100_000 })).key;
  const home = await prisma.icon.findFirstOrThrow({ where: { published: true, sourceName: 'home', set: { prefix: 'mdi' } }, include: { set: true } });
  free = { prefix: 'mdi', name: 'home', body: home.body, width: home.width, height: home.height };
  const premium = await prisma.icon.findMany({ where: { published: true, premium: true }, include: { set: true }, orderBy: { id: 'asc' }, take: 2 });
  owned = { prefix: premium[0]!.set.prefix, name: premium[0]!.sourceName };
  unowned = { prefix: premium[1]!.set.prefix, name: premium[1]!.sourceName };
  await grantIcons(prisma, 'owner', [premium[0]!.slug]);
  // Aliases as an IconifyJSON declares them (the importer writes them; here they are written
  // directly so that the protocol's reading of them is tested on its own): a flipped alias, an
  // alias of that alias with a turn, and an alias of a premium icon.
  const mdi = home.set;
  await prisma.iconAlias.createMany({
    data: [
      { setId: mdi.id, name: 'house-flipped', parent: 'home', iconId: home.id, hFlip: true },
      { setId: mdi.id, name: 'house-turned', parent: 'house-flipped', iconId: home.id, rotate: 1 },
      { setId: premium[0]!.setId, name: 'owned-alias', parent: owned.name, iconId: premium[0]!.id, vFlip: true },
    ],
  });
  // Characters for the premium icon and its alias, as a set's chars.json would give them.
  await prisma.$executeRawUnsafe(`UPDATE icon_sets SET chars = coalesce(chars, '{}'::jsonb) || $1::jsonb WHERE id = $2`, JSON.stringify({ e900: owned.name, e901: 'owned-alias' }), premium[0]!.setId);
  const premiumIcons = await prisma.icon.findMany({ where: { published: true, premium: true }, select: { sourceName: true, set: { select: { prefix: true } } } });
  premiumNames = new Set(premiumIcons.map((icon) => `${icon.set.prefix}:${icon.sourceName}`));
  // Aliases the importer wrote, chosen from the sets' own files.
  const mdiSource = require('@iconify-json/mdi/icons.json') as IconifyJSON;
  const [name, alias] = Object.entries(mdiSource.aliases ?? {}).find(([, alias]) => mdiSource.icons[alias.parent] && !mdiSource.icons[alias.parent]!.hidden)!;
  mdiAlias = { name, parent: alias.parent };
  const fluent = require('@iconify-json/fluent-emoji-flat/icons.json') as IconifyJSON;
  const [flippedName, flipped] = Object.entries(fluent.aliases ?? {}).find(([, alias]) => alias.hFlip && !alias.vFlip && !alias.rotate && fluent.icons[alias.parent])!;
  flippedAlias = { name: flippedName, parent: flipped.parent };
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function json<T = Record<string, unknown>>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await get(path, headers);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return JSON.parse(response.text) as T;
}

function expectError(response: { status: number; text: string }, status: number, message?: RegExp) {
  expect(response.status).toBe(status);
  const body = JSON.parse(response.text);
  expect(body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (message) expect(body.error.message).toMatch(message);
}

describe('icon data (/iconify/{prefix}.json)', () => {
  it('gives IconifyJSON without a key, under the anonymous limit: icons, their size, lastModified and not_found', async () => {
    const response = await get('/iconify/mdi.json?icons=home,account,no-such-icon');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const data = JSON.parse(response.text) as IconifyJSON;
    expect(data.prefix).toBe('mdi');
    expect(data.lastModified).toEqual(expect.any(Number));
    expect(Object.keys(data.icons).sort()).toEqual(['account', 'home']);
    expect(data.not_found).toEqual(['no-such-icon']);
    expect(getIconData(data, 'home')).toMatchObject({ body: free.body, width: free.width, height: free.height });
    const again = await get('/iconify/mdi.json?icons=home,account,no-such-icon');
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(JSON.parse(again.text)).toEqual(data);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(response.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('answers a request partly kept: the kept icons and the operation answer for the rest, in one IconifyJSON', async () => {
    await json('/iconify/mdi.json?icons=home,house-flipped,no-such-icon');
    const mixed = await json<IconifyJSON>('/iconify/mdi.json?icons=bell,home,house-flipped,no-such-icon,another-missing-icon');
    expect(Object.keys(mixed.icons).sort()).toEqual(['bell', 'home']);
    expect(mixed.aliases).toEqual({ 'house-flipped': { parent: 'home', hFlip: true } });
    expect(mixed.not_found).toEqual(['no-such-icon', 'another-missing-icon']);
    expect(getIconData(mixed, 'home')).toMatchObject({ body: free.body });
    const whole = await get('/iconify/mdi.json?icons=bell,home,house-flipped,no-such-icon,another-missing-icon');
    expect(whole.headers.get('x-cache')).toBe('HIT');
    expect(JSON.parse(whole.text)).toEqual(mixed);
  });

  it('resolves aliases as Iconify does: the chain of aliases and the icon it ends at, with their transformations', async () => {
    const data = await json<IconifyJSON>('/iconify/mdi.json?icons=house-turned');
    expect(Object.keys(data.icons)).toEqual(['home']);
    expect(data.aliases).toEqual({ 'house-turned': { parent: 'house-flipped', rotate: 1 }, 'house-flipped': { parent: 'home', hFlip: true } });
    expect(data.not_found).toBeUndefined();
    expect(getIconData(data, 'house-turned')).toMatchObject({ body: free.body, rotate: 1, hFlip: true });
  });

  it('gives premium icons (and their aliases) to their owners keys only; not_found for everyone else, and a key in the URL counts for nothing', async () => {
    const path = `/iconify/${owned.prefix}.json?icons=${owned.name},owned-alias,${unowned.name}`;
    const anonymous = await json<IconifyJSON>(path);
    expect(anonymous.icons).toEqual({});
    expect(anonymous.not_found).toEqual([owned.name, 'owned-alias', unowned.name]);
    const inUrl = await json<IconifyJSON>(`${path}&key=${encodeURIComponent(ownerKey)}&api_key=${encodeURIComponent(ownerKey)}`);
    expect(inUrl.icons).toEqual({});
    const other = await json<IconifyJSON>(path, { 'x-api-key': otherKey });
    expect(other.icons).toEqual({});
    const response = await get(path, { 'x-api-key': ownerKey });
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const owner = JSON.parse(response.text) as IconifyJSON;
    expect(Object.keys(owner.icons)).toEqual([owned.name]);
    expect(owner.aliases).toEqual({ 'owned-alias': { parent: owned.name, vFlip: true } });
    expect(owner.not_found).toEqual([unowned.name]);
    // What the owner was given is not kept for anyone else.
    expect((await json<IconifyJSON>(path)).icons).toEqual({});
  });

  it('answers 404 for an unknown set, 400 without icons, and not_found for names that cannot be icons', async () => {
    expectError(await get('/iconify/no-such-set.json?icons=home'), 404);
    expectError(await get('/iconify/mdi.json'), 400, /icons/);
    const data = await json<IconifyJSON>('/iconify/mdi.json?icons=home,Bad%20Name');
    expect(data.not_found).toEqual(['Bad Name']);
    expectError(await get('/iconify/mdi.json?icons=a&icons=b'), 400);
  });
});

describe('aliases as the importer wrote them', () => {
  it("answers a set's own alias with its record and its parent, and draws it", async () => {
    const data = await json<IconifyJSON>(`/iconify/mdi.json?icons=${mdiAlias.name}`);
    expect(data.aliases).toEqual({ [mdiAlias.name]: { parent: mdiAlias.parent } });
    expect(Object.keys(data.icons)).toEqual([mdiAlias.parent]);
    expect(data.not_found).toBeUndefined();
  });

  it('answers a flipped alias and draws the flipped icon in its SVG file', async () => {
    const data = await json<IconifyJSON>(`/iconify/fluent-emoji-flat.json?icons=${flippedAlias.name}`);
    expect(data.aliases).toEqual({ [flippedAlias.name]: { parent: flippedAlias.parent, hFlip: true } });
    expect(Object.keys(data.icons)).toEqual([flippedAlias.parent]);
    const svg = await get(`/iconify/fluent-emoji-flat/${flippedAlias.name}.svg`);
    expect(svg.status).toBe(200);
    const built = iconToSVG(getIconData(data, flippedAlias.name)!, { width: null, height: null });
    expect(svg.text).toBe(iconToHTML(built.body, built.attributes));
    expect(svg.text).toContain('scale(-1 1)');
    const parent = await get(`/iconify/fluent-emoji-flat/${flippedAlias.parent}.svg`);
    expect(parent.text).not.toContain('scale(-1 1)');
  });
});

describe('SVG files (/iconify/{prefix}/{name}.svg)', () => {
  const set = (): IconifyJSON => ({ prefix: 'mdi', icons: { home: { body: free.body, width: free.width, height: free.height } }, aliases: { 'house-flipped': { parent: 'home', hFlip: true } } });

  it.each([
    ['', {}],
    ['?width=48', { width: '48' }],
    ['?height=2em&rotate=90deg', { height: '2em', rotate: 1 }],
    ['?flip=horizontal,vertical&width=auto', { hFlip: true, vFlip: true, width: 'auto' }],
    ['?width=unset&height=unset', { width: 'unset', height: 'unset' }],
  ])('builds %s as @iconify/utils builds it', async (query, customisations) => {
    const response = await get(`/iconify/mdi/home.svg${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const built = iconToSVG(getIconData(set(), 'home')!, { width: null, height: null, ...customisations });
    expect(response.text).toBe(iconToHTML(built.body, built.attributes));
  });

  it('applies an alias transformations, color, box and download', async () => {
    const flipped = await get('/iconify/mdi/house-flipped.svg?color=%23ff0000&box=1&download=1');
    expect(flipped.status).toBe(200);
    expect(flipped.headers.get('content-disposition')).toBe('attachment; filename="house-flipped.svg"');
    expect(flipped.text).toContain('scale(-1 1)');
    expect(flipped.text).toContain(`<rect x="0" y="0" width="${free.width}" height="${free.height}" fill="rgba(255, 255, 255, 0)" />`);
    if (free.body.includes('currentColor')) expect(flipped.text).toContain('#ff0000');
    expect(flipped.text).not.toContain('currentColor');
  });

  it('keeps a free icon finished file for anyone, never a premium one', async () => {
    const first = await get('/iconify/mdi/home.svg?width=31&color=blue');
    const again = await get('/iconify/mdi/home.svg?color=blue&width=31', { 'x-api-key': otherKey });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    const path = `/iconify/${owned.prefix}/${owned.name}.svg?width=33`;
    expect((await get(path, { 'x-api-key': ownerKey })).status).toBe(200);
    const owner = await get(path, { 'x-api-key': ownerKey });
    expect(owner.status).toBe(200);
    expect(owner.headers.get('x-cache')).not.toBe('HIT');
    expectError(await get(path, { 'x-api-key': otherKey }), 404);
    expectError(await get(path), 404);
  });

  it('answers 404 for an unknown or withheld icon, and 400 naming a bad customization', async () => {
    expectError(await get('/iconify/mdi/no-such-icon.svg'), 404);
    expectError(await get(`/iconify/${unowned.prefix}/${unowned.name}.svg`), 404);
    expect((await get(`/iconify/${owned.prefix}/${owned.name}.svg`, { 'x-api-key': ownerKey })).status).toBe(200);
    expectError(await get('/iconify/mdi/home.svg?color=red%22%3E%3Cscript'), 400, /color/);
    expectError(await get('/iconify/mdi/home.svg?rotate=45deg'), 400, /rotate/);
    expectError(await get('/iconify/mdi/home.svg?flip=diagonal'), 400, /flip/);
    expectError(await get('/iconify/mdi/home.svg?width=99999'), 400, /width/);
  });
});

describe('JSONP (callback=)', () => {
  it('wraps JSON answers in the callback as application/javascript, and /{prefix}.js in Iconify\'s default one', async () => {
    const plain = await get('/iconify/mdi.json?icons=home');
    const wrapped = await get('/iconify/mdi.json?icons=home&callback=app.icons_loaded$');
    expect(wrapped.status).toBe(200);
    expect(wrapped.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(wrapped.headers.get('x-content-type-options')).toBe('nosniff');
    expect(wrapped.text).toBe(`app.icons_loaded$(${plain.text});`);
    const script = await get('/iconify/mdi.js?icons=home');
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(script.text).toBe(`SimpleSVG._loaderCallback(${plain.text});`);
    const collection = await get('/iconify/collection?prefix=mdi&callback=cb');
    expect(collection.text).toBe(`cb(${(await get('/iconify/collection?prefix=mdi')).text});`);
    expect((await get('/iconify/collections?callback=cb')).text).toMatch(/^cb\(\{.*\}\);$/s);
  });

  it('refuses a callback that is not a JavaScript name, and leaves errors as JSON', async () => {
    for (const callback of ['alert(1)', 'a;b', '1abc', 'a..b', '', '%3Cscript%3E', 'x'.repeat(101)]) {
      expectError(await get(`/iconify/mdi.json?icons=home&callback=${callback}`), 400, /callback/);
    }
    const missing = await get('/iconify/no-such-set.json?icons=home&callback=cb');
    expectError(missing, 404);
    expect((await get('/iconify/mdi/home.svg?callback=cb')).headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  });
});

describe('downloads', () => {
  it("counts a 200 to a GET of an SVG file (an alias's for its icon), not icon data, stylesheets, HEADs or refusals", async () => {
    const { prisma } = database.db;
    const icon = await prisma.icon.findFirstOrThrow({ where: { published: true, premium: false, set: { prefix: 'tabler' } }, orderBy: { id: 'desc' } });
    const aliased = await prisma.icon.findFirstOrThrow({ where: { set: { prefix: 'mdi' }, sourceName: mdiAlias.parent } });
    const premium = await prisma.icon.findFirstOrThrow({ where: { set: { prefix: unowned.prefix }, sourceName: unowned.name } });
    expect((await get(`/iconify/${unowned.prefix}/${unowned.name}.svg`)).status).toBe(404);
    expect((await get(`/iconify/tabler.json?icons=${icon.sourceName}`)).status).toBe(200);
    expect((await get(`/iconify/tabler.css?icons=${icon.sourceName}`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/iconify/tabler/${icon.sourceName}.svg`, { method: 'HEAD' })).status).toBe(200);
    expect((await get(`/iconify/tabler/${icon.sourceName}.svg`)).status).toBe(200);
    expect((await get(`/iconify/tabler/${icon.sourceName}.svg?rotate=1`)).status).toBe(200);
    expect((await get(`/iconify/mdi/${mdiAlias.name}.svg`)).status).toBe(200);
    const counted = async (id: number) => (await prisma.iconDownloadDay.aggregate({ where: { iconId: id }, _sum: { downloads: true } }))._sum.downloads ?? 0;
    await waitFor(async () => (await counted(icon.id)) >= 2 && (await counted(aliased.id)) >= 1, 'the downloads to be sent', { timeoutMs: 60_000 });
    // The requests that must not count went out before those awaited: a flush sends every count held.
    expect(await counted(icon.id)).toBe(2);
    expect(await counted(aliased.id)).toBe(1);
    expect(await counted(premium.id)).toBe(0);
  });
});

describe('stylesheets (/iconify/{prefix}.css)', () => {
  it('gives getIconsCSS of the icons with Iconify options', async () => {
    const response = await get('/iconify/mdi.css?icons=home,house-flipped,no-such-icon&format=compact&square=1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const set: IconifyJSON = { prefix: 'mdi', icons: { home: { body: free.body } }, aliases: { 'house-flipped': { parent: 'home', hFlip: true } }, width: free.width, height: free.height };
    expect(response.text).toBe(getIconsCSS({ ...set, info: { palette: false } as never }, ['home', 'house-flipped', 'no-such-icon'], { format: 'compact', forceSquare: true }));
    expect(response.text).toContain('.icon--mdi--home');
    expect(response.text).toContain('/* Could not find icon: no-such-icon */');
  });

  it('refuses a selector that could end the rule', async () => {
    expectError(await get('/iconify/mdi.css?icons=home&selector=.a%7Dbody%7Bcolor:red'), 400, /selector/);
    expectError(await get('/iconify/mdi.css?icons=home&mode=sideways'), 400, /mode/);
  });
});

describe('the lists', () => {
  it('/collections: every set as Iconify info, filtered by prefix and prefixes', async () => {
    const all = await json<Record<string, { name: string; total: number; height?: number; author: { name: string }; license: { title: string }; samples: string[] }>>('/iconify/collections');
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['mdi', 'tabler', owned.prefix]));
    expect(all.mdi).toMatchObject({ name: expect.any(String), total: expect.any(Number), author: { name: expect.any(String) }, license: { title: expect.any(String) }, palette: false });
    expect(all.mdi!.samples.length).toBeGreaterThan(0);
    // total: the set's free icons; height: the one most of its icons have; as counted over the icons themselves.
    const counted = await database.db.prisma.$queryRawUnsafe<{ prefix: string; total: number; height: number | null; published: number }[]>(
      `SELECT s.prefix, (SELECT count(*)::int FROM icons i WHERE i.set_id = s.id AND i.published AND NOT i.premium) AS total,
         (SELECT i.height FROM icons i WHERE i.set_id = s.id AND i.published GROUP BY i.height ORDER BY count(*) DESC, i.height LIMIT 1) AS height,
         s.icon_count AS published
       FROM icon_sets s WHERE s.icon_count > 0`,
    );
    expect(counted.length).toBe(Object.keys(all).length);
    expect(counted.find((set) => set.prefix === owned.prefix)!.total).toBeLessThan(counted.find((set) => set.prefix === owned.prefix)!.published); // premium icons are not counted
    for (const { prefix, total, height } of counted) expect({ prefix, total: all[prefix]?.total, height: all[prefix]?.height }).toEqual({ prefix, total, height });
    expect(Object.keys(await json('/iconify/collections?prefix=mdi'))).toEqual(['mdi']);
    expect(Object.keys(await json('/iconify/collections?prefixes=mdi,tabler')).sort()).toEqual(['mdi', 'tabler']);
  });

  it('/collection: names by category, aliases, info when asked; 404 for an unknown set', async () => {
    const plain = await json<{ prefix: string; total: number; categories: Record<string, string[]>; aliases: Record<string, string>; info?: unknown }>('/iconify/collection?prefix=mdi');
    expect(plain.prefix).toBe('mdi');
    expect(plain.info).toBeUndefined();
    expect(Object.values(plain.categories).flat()).toContain('home');
    expect(Object.values(plain.categories).flat().length).toBe(plain.total);
    expect(plain.aliases).toMatchObject({ 'house-flipped': 'home', 'house-turned': 'house-flipped', [mdiAlias.name]: mdiAlias.parent });
    expect((await json<{ info: { name: string } }>('/iconify/collection?prefix=mdi&info=true')).info.name).toEqual(expect.any(String));
    expectError(await get('/iconify/collection?prefix=no-such-set'), 404);
    expectError(await get('/iconify/collection'), 400, /prefix/);
  });

  it("/collection?chars=1: the set's characters map (chars.json), for the names the caller may see", async () => {
    type Listing = { categories?: Record<string, string[]>; aliases?: Record<string, string>; chars?: Record<string, string> };
    const listedNames = (answer: Listing) => new Set([...Object.values(answer.categories ?? {}).flat(), ...Object.keys(answer.aliases ?? {})]);
    const mdi = await json<Listing>('/iconify/collection?prefix=mdi&chars=1');
    expect(mdi.chars!.f02dc).toBe('home'); // as @iconify-json/mdi's chars.json says
    expect(Object.keys(mdi.chars!).length).toBeGreaterThan(1000);
    const listed = listedNames(mdi);
    expect(Object.values(mdi.chars!).filter((name) => !listed.has(name))).toEqual([]);
    expect((await json<Listing>('/iconify/collection?prefix=mdi')).chars).toBeUndefined();
    expect((await json<Listing>('/iconify/collection?prefix=tabler&chars=1')).chars).toBeUndefined(); // a set without a map
    const path = `/iconify/collection?prefix=${owned.prefix}&chars=true`;
    const anonymous = await json<Listing>(path);
    expect(anonymous.chars?.e900).toBeUndefined();
    expect(anonymous.chars?.e901).toBeUndefined();
    const owner = await json<Listing>(path, { 'x-api-key': ownerKey });
    expect(owner.chars).toMatchObject({ e900: owned.name, e901: 'owned-alias' });
    expectError(await get('/iconify/collection?prefix=mdi&chars=maybe'), 400, /chars/);
  });

  it('/collection and /search name a premium icon only to its owners; set samples are free icons', async () => {
    const path = `/iconify/collection?prefix=${owned.prefix}`;
    const names = (answer: { categories?: Record<string, string[]>; aliases?: Record<string, string> }) => [...Object.values(answer.categories ?? {}).flat(), ...Object.keys(answer.aliases ?? {})];
    const anonymous = names(await json(path));
    expect(anonymous).not.toContain(owned.name);
    expect(anonymous).not.toContain('owned-alias');
    expect(anonymous).not.toContain(unowned.name);
    expect(anonymous.filter((name) => premiumNames.has(`${owned.prefix}:${name}`))).toEqual([]);
    const response = await get(path, { 'x-api-key': ownerKey });
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const owner = names(JSON.parse(response.text));
    expect(owner).toContain(owned.name);
    expect(owner).toContain('owned-alias');
    expect(owner).not.toContain(unowned.name);
    // The owner's answer is not kept for anyone else.
    expect(names(await json(path))).not.toContain(owned.name);
    // `total` counts the icons the caller may have, as Iconify's counts the icons it lists.
    type Counted = { total: number; categories?: Record<string, string[]>; info: { total: number } };
    const listed = (answer: Counted) => Object.values(answer.categories ?? {}).flat().length;
    const anonymousAnswer = await json<Counted>(`${path}&info=true`);
    const ownerAnswer = await json<Counted>(`${path}&info=true`, { 'x-api-key': ownerKey });
    expect(anonymousAnswer.total).toBe(listed(anonymousAnswer));
    expect(anonymousAnswer.info.total).toBe(anonymousAnswer.total);
    expect(ownerAnswer.total).toBe(anonymousAnswer.total + 1);
    expect(ownerAnswer.info.total).toBe(ownerAnswer.total);
    expect((await json<Record<string, { total: number }>>(`/iconify/collections?prefix=${owned.prefix}`))[owned.prefix]!.total).toBe(anonymousAnswer.total);

    const query = `/iconify/search?query=${encodeURIComponent(owned.name.replaceAll('-', ' '))}&prefix=${owned.prefix}&limit=999`;
    const found = await json<{ icons: string[] }>(query);
    expect(found.icons.filter((name) => premiumNames.has(name))).toEqual([]);
    const ownerFound = await json<{ icons: string[] }>(query, { 'x-api-key': ownerKey });
    expect(ownerFound.icons).toContain(`${owned.prefix}:${owned.name}`);
    expect(ownerFound.icons).not.toContain(`${unowned.prefix}:${unowned.name}`);
    expect((await json<{ icons: string[] }>(query, { 'x-api-key': otherKey })).icons.filter((name) => premiumNames.has(name))).toEqual([]);

    const sets = await json<Record<string, { samples: string[] }>>('/iconify/collections');
    const samples = Object.entries(sets).flatMap(([prefix, info]) => info.samples.map((name) => `${prefix}:${name}`));
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.filter((name) => premiumNames.has(name))).toEqual([]);
  });

  it('/search: prefix:name in relevance order, limit, start, prefixes, and the sets found', async () => {
    const found = await json<{ icons: string[]; total: number; limit: number; start: number; collections: Record<string, unknown>; request: Record<string, string> }>('/iconify/search?query=home&limit=40');
    expect(found.limit).toBe(40);
    expect(found.icons.length).toBeGreaterThan(0);
    expect(found.icons.every((name) => /^[a-z0-9-]+:[a-z0-9_-]+$/.test(name))).toBe(true);
    expect(found.total).toBe(found.icons.length);
    expect(Object.keys(found.collections).sort()).toEqual([...new Set(found.icons.map((name) => name.split(':')[0]))].sort());
    expect(found.request).toEqual({ query: 'home', limit: '40' });
    const mdiOnly = await json<{ icons: string[] }>('/iconify/search?query=home&prefix=mdi');
    expect(mdiOnly.icons.length).toBeGreaterThan(0);
    expect(mdiOnly.icons.every((name) => name.startsWith('mdi:'))).toBe(true);
    const two = await json<{ icons: string[] }>('/iconify/search?query=home&prefixes=mdi,tabler&limit=999');
    expect(new Set(two.icons.map((name) => name.split(':')[0]))).toEqual(new Set(['mdi', 'tabler']));
    const later = await json<{ icons: string[]; start: number }>('/iconify/search?query=home&limit=40&start=2');
    expect(later.icons).toEqual(found.icons.slice(2));
    expect((await json<{ limit: number }>('/iconify/search?query=home&limit=5')).limit).toBe(32);
    expectError(await get('/iconify/search'), 400, /query/);
    expectError(await get('/iconify/search?query=home&limit=40&start=40'), 400, /start/);
  });

  it('/last-modified and /version', async () => {
    const modified = await json<{ lastModified: Record<string, number> }>('/iconify/last-modified?prefixes=mdi,tabler');
    expect(Object.keys(modified.lastModified).sort()).toEqual(['mdi', 'tabler']);
    const version = await get('/iconify/version');
    expect(version.status).toBe(200);
    expect(version.text).toMatch(/Iconify/);
    expectError(await get('/iconify/nothing-here'), 404);
  });
});
