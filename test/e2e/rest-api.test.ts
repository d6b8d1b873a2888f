// The REST API of the specification over a real socket, on a copy of the demo catalogue in
// embedded PGlite with in-memory rate limits: every row of the error table, every parameter
// rule at its bounds and just outside, the headers on every kind of response, the exact JSON
// shapes, premium 403 and owned 200, ETags and 304s, HEAD and 405.
import { Agent, get as httpGet } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { pollUntil } from '../helpers/wait.ts';

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;
let ownerKey: string;
let ownedSlug: string;
let unownedSlug: string;
let freeSlug: string;
let keyLookups = 0;
let iconStatements = 0;

beforeAll(async () => {
  delete process.env.REDIS_URL; // memory store for this suite
  database = await createCatalogueCopy('pglite', {
    onQuery: (sql) => {
      if (/^SELECT .* FROM "public"."api_keys"/s.test(sql)) keyLookups++;
      if (/\bicons\b/.test(sql)) iconStatements++;
    },
  });
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'reader', hourlyLimit: 100_000 })).key;
  ownerKey = (await createApiKey(prisma, { accountName: 'owner', hourlyLimit: 100_000 })).key;
  const premium = await prisma.icon.findMany({ where: { premium: true, published: true }, orderBy: { id: 'asc' }, take: 2 });
  ownedSlug = premium[0]!.slug;
  unownedSlug = premium[1]!.slug;
  await grantIcons(prisma, 'owner', [ownedSlug]);
  freeSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: false, published: true }, orderBy: { id: 'asc' } })).slug;
  gateway = await startGatewayInProcess(database.db);
  // Read the list index now, so that its read in the background is not counted as a request's statements.
  await listIndexOf(database.db.reads).build();
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

/** A JSON body as the tests read it: any field, each assertion checks the shape it needs. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Json = any;

async function get(path: string, headers: Record<string, string> = { 'x-api-key': key }, method = 'GET', base = gateway.url) {
  const response = await fetch(`${base}${path}`, { method, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text && /^application\/json/.test(response.headers.get('content-type') ?? '') ? (JSON.parse(text) as Json) : undefined };
}

/** What `request` answers once the key it sends is refused (it polls until then, for 20 s at most). */
const untilRefused = <T>(request: () => Promise<T>, statusOf: (answer: T) => number) => pollUntil(request, (answer) => statusOf(answer) !== 200, { timeoutMs: 20_000 });

const LIST_ITEM_KEYS = ['id', 'name', 'slug', 'category', 'style', 'license', 'attribution', 'premium', 'downloads', 'svg_url', 'preview_url', 'url'].sort();
const META_KEYS = ['page', 'per_page', 'total', 'total_pages'].sort();
/** /icons says in `missing` which of the icons asked by ids or slugs were not found (null otherwise). */
const LIST_META_KEYS = [...META_KEYS, 'missing', 'next_cursor'].sort();

function expectErrorBody(response: { status: number; json: Json; headers: Headers }, status: number, message?: string | RegExp) {
  expect(response.status).toBe(status);
  expect(Object.keys(response.json)).toEqual(['error']);
  expect(Object.keys(response.json.error).sort()).toEqual(['code', 'message']);
  expect(response.json.error.code).toBe(status);
  expect(typeof response.json.error.message).toBe('string');
  if (message) expect(response.json.error.message).toMatch(message);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.json.error.message).not.toMatch(/graphql|at .*\.ts:\d+|Cannot|undefined/i);
}

describe('the error table of the specification', () => {
  it('401 when the key is missing, malformed, unknown or revoked', async () => {
    expectErrorBody(await get('/icons', {}), 401, /API key is required/);
    expectErrorBody(await get('/icons', { 'x-api-key': 'not-a-key' }), 401, /invalid or has been revoked/);
    expectErrorBody(await get('/icons', { authorization: 'Basic abc' }), 401);
    expectErrorBody(await get('/icons', { 'x-api-key': `${key.slice(0, -2)}zz` }), 401);
    const doomed = await createApiKey(database.db.prisma, { accountName: 'doomed' });
    await database.db.prisma.apiKey.update({ where: { publicId: doomed.publicId }, data: { revokedAt: new Date() } });
    expectErrorBody(await get('/categories', { 'x-api-key': doomed.key }), 401);
    for (const headers of [{}, { 'x-api-key': 'not-a-key' }] as Record<string, string>[]) {
      expect((await get('/icons', headers)).headers.get('www-authenticate')).toBe('Bearer realm="icon-catalogue", charset="UTF-8"');
    }
  });

  it('accepts the key as Authorization: Bearer too', async () => {
    expect((await get('/categories', { authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it('403 for a premium icon the account does not own; 200 with markup for its owner', async () => {
    expectErrorBody(await get(`/icons/${ownedSlug}`), 403, /premium icon that your account does not own/);
    expectErrorBody(await get(`/icons/${unownedSlug}`, { 'x-api-key': ownerKey }), 403);
    const owned = await get(`/icons/${ownedSlug}`, { 'x-api-key': ownerKey });
    expect(owned.status).toBe(200);
    expect(owned.json.data.premium).toBe(true);
    expect(owned.json.data.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('404 for an unknown icon (id or slug) and an unknown path', async () => {
    expectErrorBody(await get('/icons/no-such-icon'), 404, /No icon with id or slug "no-such-icon"/);
    expectErrorBody(await get('/icons/987654321'), 404);
    expectErrorBody(await get('/nowhere'), 404, /No route for \/nowhere/);
    expectErrorBody(await get('/icons/a/b'), 404);
  });

  it('405 with Allow for other methods on known paths; HEAD works like GET without a body', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await get('/icons', { 'x-api-key': key }, method);
      expectErrorBody(response, 405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    const head = await get('/categories', { 'x-api-key': key }, 'HEAD');
    const full = await get('/categories');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
    expect(head.headers.get('x-ratelimit-limit')).toBe('100000');
  });

  it('429 with Retry-After once a key has used its hourly limit', async () => {
    const limited = await createApiKey(database.db.prisma, { accountName: 'limited', hourlyLimit: 5 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/categories', { 'x-api-key': limited.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await get('/categories', { 'x-api-key': limited.key });
    expectErrorBody(refused, 429, /Rate limit exceeded: 5 requests per hour/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThan(Date.now());
  });
});

describe('parameter rules at their bounds', () => {
  it.each([
    ['/icons?page=1', 200],
    ['/icons?page=0', 400, /page must be a whole number from 1 to 2147483647 \(got "0"\)/],
    ['/icons?page=2147483647', 200],
    ['/icons?page=2147483648', 400, /page must be a whole number from 1 to 2147483647 \(got "2147483648"\)/],
    ['/icons?page=-3', 400, /page must be/],
    ['/icons?page=1.5', 400, /page must be/],
    ['/icons?page=abc', 400, /page must be/],
    ['/icons?page=99999999999999', 400, /page must be/],
    ['/icons?per_page=1', 200],
    ['/icons?per_page=100', 200],
    ['/icons?per_page=0', 400, /per_page must be a whole number from 1 to 100/],
    ['/icons?per_page=101', 400, /per_page must be a whole number from 1 to 100 \(got "101"\)/],
    ['/icons?sort=az', 200],
    ['/icons?sort=AZ', 400, /sort must be one of: popular, newest, downloads, az \(got "AZ"\)/],
    ['/icons?license=FREE', 400, /license must be one of: free, premium/],
    ['/icons?per_page=%2010', 400, /per_page must be a whole number from 1 to 100/],
    ['/icons?sort=name', 400, /sort must be one of: popular, newest, downloads, az/],
    ['/icons?license=free', 200],
    ['/icons?license=premium', 200],
    ['/icons?license=gratis', 400, /license must be one of: free, premium/],
    ['/icons?include_svg=0', 200],
    ['/icons?include_svg=1', 200],
    ['/icons?include_svg=2', 400, /include_svg must be 0 or 1/],
    ['/icons?include_svg=yes', 400, /include_svg must be 0 or 1/],
    ['/icons?page=1&page=2', 400, /page must be given at most once/],
    ['/search?q=a', 200],
    [`/search?q=${'a'.repeat(200)}`, 200],
    [`/search?q=${'a'.repeat(201)}`, 400, /q must be at most 200 characters long/],
    ['/search', 400, /^q is required$/],
    ['/search?q=', 400, /q must not be empty/],
    ['/search?q=%20%20', 400, /q must not be empty/],
    ['/search?q=home&per_page=101', 400, /per_page/],
    ['/icons?utm_source=newsletter&whatever=1', 200],
    // An empty value counts as absent, whatever the parameter (the README's rule; issue 11, item 13).
    ...['page', 'per_page', 'category', 'tag', 'style', 'color', 'license', 'sort', 'include_svg'].flatMap((name) => [
      [`/icons?${name}=`, 200] as const,
      [`/search?q=home&${name}=%20`, 200] as const,
    ]),
    ['/icons?category=%00', 400, /category must not contain control characters/],
    ['/search?q=a%00b', 400, /q must not contain control characters/],
    ['/icons/%00', 404, /No icon with id or slug/],
  ] as const)('%s -> %i', async (path, status, message?: RegExp) => {
    const response = await get(path);
    if (status === 200) expect(response.status).toBe(200);
    else expectErrorBody(response, status, message);
  });

  it('answers an unknown filter value with an empty page, and a page past the last with the true meta', async () => {
    const none = await get('/icons?category=no-such-category');
    expect(none.json).toEqual({ data: [], meta: { page: 1, per_page: 24, total: 0, total_pages: 0, missing: null, next_cursor: null } });
    const past = await get('/icons?style=bold&page=5000&per_page=100');
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.total).toBeGreaterThan(0);
    expect(past.json.meta.total_pages).toBe(Math.ceil(past.json.meta.total / 100));
  });
});

describe('hostile input', () => {
  const HOSTILE = ['%00', '%FF', '%C0%AF', "'", '%5C', '%22%3B--', 'a'.repeat(5000), '%F0%9F%98%80', '__proto__', 'constructor', '-0', '1e309', 'NaN', 'Infinity', '%20', '%0A', '[]', '%7B%7D', '0x1F'];
  const PARAMS = ['page', 'per_page', 'category', 'tag', 'style', 'color', 'license', 'sort', 'include_svg', 'set', 'ids', 'slugs'];

  it('never answers 5xx, whatever a parameter or path holds', async () => {
    const failures: string[] = [];
    const paths = [
      ...HOSTILE.flatMap((value) => PARAMS.map((param) => `/icons?${param}=${value}`)),
      ...HOSTILE.flatMap((value) => [`/search?q=${value}`, `/search?q=home&sort=${value}`, `/icons/${value}`]),
    ];
    for (const path of paths) {
      const response = await get(path);
      if (response.status >= 500) failures.push(`${path} -> ${response.status}`);
      else if (response.status >= 400) expectErrorBody(response, response.status);
    }
    expect(failures).toEqual([]);
  });
});

describe('response shapes', () => {
  it('lists icons with exactly the fields of the specification, and meta with the page in effect', async () => {
    const { json, status } = await get('/icons');
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['data', 'meta']);
    expect(json.data).toHaveLength(24);
    for (const item of json.data) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    expect(Object.keys(json.meta).sort()).toEqual(LIST_META_KEYS);
    expect(json.meta).toMatchObject({ page: 1, per_page: 24, missing: null, next_cursor: expect.any(String) });
    expect(json.meta.total).toBe(await database.db.prisma.icon.count({ where: { published: true } }));
  });

  it('embeds svg with include_svg=1: markup for free icons, null for premium ones, whoever asks', async () => {
    for (const apiKey of [key, ownerKey]) {
      const { json } = await get('/icons?include_svg=1&per_page=100&license=premium&sort=az', { 'x-api-key': apiKey });
      expect(json.data.length).toBeGreaterThan(0);
      for (const item of json.data) expect(item.svg).toBeNull();
    }
    const free = await get('/icons?include_svg=1&per_page=50&license=free');
    for (const item of free.json.data) {
      expect(Object.keys(item).sort()).toEqual([...LIST_ITEM_KEYS, 'svg'].sort());
      expect(item.svg).toMatch(/^<svg /);
    }
  });

  it('returns one icon with its tags, license and markup, by slug and by id alike', async () => {
    const bySlug = await get(`/icons/${freeSlug}`);
    expect(bySlug.status).toBe(200);
    expect(Object.keys(bySlug.json)).toEqual(['data']);
    expect(Object.keys(bySlug.json.data).sort()).toEqual([...LIST_ITEM_KEYS, 'license_url', 'svg', 'tags'].sort());
    for (const tag of bySlug.json.data.tags) expect(Object.keys(tag).sort()).toEqual(['name', 'slug']);
    const byId = await get(`/icons/${bySlug.json.data.id}`);
    expect(byId.json).toEqual(bySlug.json);
  });

  it('writes fields in the order of the specification and the operation, whichever resolves first', async () => {
    // The routes' operations run compiled (compiled-operations.ts). Mesh's executor wrote
    // `meta` before `data` when the items had markup, which resolves later than the rest.
    const ITEM_ORDER = ['id', 'name', 'slug', 'category', 'style', 'license', 'attribution', 'premium', 'downloads', 'svg_url', 'preview_url', 'url'];
    const PAGE_META_ORDER = ['page', 'per_page', 'total', 'total_pages'];
    const pages = [
      { path: '/icons?include_svg=1&per_page=5', meta: [...PAGE_META_ORDER, 'missing', 'next_cursor'] },
      { path: '/icons?per_page=5&sort=az', meta: [...PAGE_META_ORDER, 'missing', 'next_cursor'] },
      { path: '/search?q=arrow&include_svg=1&per_page=5', meta: PAGE_META_ORDER },
      { path: '/search?q=arrow&per_page=5', meta: PAGE_META_ORDER },
    ];
    for (const { path, meta } of pages) {
      const { json } = await get(path);
      expect(Object.keys(json), path).toEqual(['data', 'meta']);
      expect(Object.keys(json.meta), path).toEqual(meta);
      const svg = path.includes('include_svg=1') ? ['svg'] : [];
      for (const item of json.data) expect(Object.keys(item), path).toEqual([...ITEM_ORDER, ...svg]);
    }
    const single = await get(`/icons/${freeSlug}`);
    expect(Object.keys(single.json.data)).toEqual([...ITEM_ORDER, 'license_url', 'tags', 'svg']);
    for (const tag of single.json.data.tags) expect(Object.keys(tag)).toEqual(['slug', 'name']);
  });

  it('lists categories as {slug, name, icon_count}, ordered by name', async () => {
    const { json } = await get('/categories');
    expect(json.data.length).toBeGreaterThan(50);
    for (const category of json.data) expect(Object.keys(category).sort()).toEqual(['icon_count', 'name', 'slug']);
    const names = json.data.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('searches in the list form, taking the filters', async () => {
    const { json } = await get('/search?q=arrow%20left&per_page=5&license=free');
    expect(json.data[0].name).toBe('Arrow Left');
    expect(json.meta).toMatchObject({ page: 1, per_page: 5 });
    for (const item of json.data) expect(item.premium).toBe(false);
  });
});

describe('headers on every kind of response', () => {
  it('carries X-RateLimit-Limit on 200, 304, 400, 401, 403, 404, 405; Remaining and Reset once counted', async () => {
    const ok = await get('/categories');
    const notModified = await get('/categories', { 'x-api-key': key, 'if-none-match': ok.headers.get('etag')! });
    const responses = {
      200: ok,
      304: notModified,
      400: await get('/icons?page=0'),
      401: await get('/icons', {}),
      403: await get(`/icons/${ownedSlug}`),
      404: await get('/no-such-path'),
      405: await get('/icons', { 'x-api-key': key }, 'DELETE'),
    };
    for (const [status, response] of Object.entries(responses)) {
      expect(response.status, `status ${status}`).toBe(Number(status));
      expect(response.headers.get('x-ratelimit-limit'), `limit on ${status}`).toMatch(/^\d+$/);
      expect(response.headers.get('x-request-id'), `request id on ${status}`).toBeTruthy();
    }
    for (const status of [200, 304, 400, 403] as const) {
      expect(responses[status].headers.get('x-ratelimit-limit')).toBe('100000');
      expect(responses[status].headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(responses[status].headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    }
  });

  it('answers If-None-Match with 304 on every route, with an empty body', async () => {
    for (const path of ['/icons?per_page=3', `/icons/${freeSlug}`, '/categories', '/search?q=home&per_page=3']) {
      const first = await get(path);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      const again = await get(path, { 'x-api-key': key, 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      // Weak comparison, as If-None-Match asks: a weak form of the tag, or one of a list, matches too.
      expect((await get(path, { 'x-api-key': key, 'if-none-match': `W/${etag}` })).status, path).toBe(304);
      expect((await get(path, { 'x-api-key': key, 'if-none-match': `"other", W/${etag}` })).status, path).toBe(304);
      const stale = await get(path, { 'x-api-key': key, 'if-none-match': '"stale"' });
      expect(stale.status).toBe(200);
    }
  });

  it('never lets the owner’s ETag validate a non-owner’s request into the owner’s content', async () => {
    const owner = await get(`/icons/${ownedSlug}`, { 'x-api-key': ownerKey });
    const other = await get(`/icons/${ownedSlug}`, { 'x-api-key': key, 'if-none-match': owner.headers.get('etag')! });
    expect(other.status).toBe(403);
  });
});

describe('the response cache', () => {
  it('answers a repeated request from the cache with the same bytes and ETag, and keys on every parameter', async () => {
    const first = await get('/search?q=calendar&per_page=7');
    const again = await get('/search?q=calendar&per_page=7');
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const other = await get('/search?q=calendar&per_page=8');
    expect(other.headers.get('x-cache')).toBe('MISS');
    expect(other.json.data).toHaveLength(8);
    const revalidated = await get('/search?q=calendar&per_page=7', { 'x-api-key': key, 'if-none-match': first.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
  });

  it('never serves one account the premium markup cached for another, even when the owner filled it first', async () => {
    const stranger = await createApiKey(database.db.prisma, { accountName: 'cache-stranger' });
    const owner = await get(`/icons/${ownedSlug}`, { 'x-api-key': ownerKey });
    expect(owner.status).toBe(200);
    const ownerAgain = await get(`/icons/${ownedSlug}`, { 'x-api-key': ownerKey });
    expect(ownerAgain.headers.get('x-cache')).toBe('HIT');
    for (const apiKey of [key, stranger.key]) {
      const refused = await get(`/icons/${ownedSlug}`, { 'x-api-key': apiKey });
      expectErrorBody(refused, 403);
      expect(refused.text).not.toContain('<svg');
    }
  });

  // The key cache keeps a key for keyCacheSeconds (5): a revocation must be seen once it has
  // expired. The wait allows three times that, so a loaded machine does not fail it, while a key
  // cached for good (or for a minute) still does.
  it('refuses a key once keyCacheSeconds (5) have passed since its revocation, cached responses or not', async () => {
    const doomed = await createApiKey(database.db.prisma, { accountName: 'cache-doomed' });
    expect((await get('/categories', { 'x-api-key': doomed.key })).status).toBe(200);
    await database.db.prisma.apiKey.update({ where: { publicId: doomed.publicId }, data: { revokedAt: new Date() } });
    expectErrorBody(await untilRefused(() => get('/categories', { 'x-api-key': doomed.key }), (response) => response.status), 401);
  }, 30_000);

  it('checks every key on a kept-alive connection: a wrong secret, another account and a revocation are each seen', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const onOneConnection = (path: string, apiKey: string) =>
      new Promise<number>((done, fail) => {
        const request = httpGet(`${gateway.url}${path}`, { agent, headers: { 'x-api-key': apiKey } }, (response) => {
          response.resume().on('end', () => done(response.statusCode!));
        });
        request.on('socket', (socket) => sockets.add(socket)).on('error', fail);
      });
    try {
      const doomed = await createApiKey(database.db.prisma, { accountName: 'one-connection' });
      expect(await onOneConnection(`/icons/${ownedSlug}`, ownerKey)).toBe(200);
      expect(await onOneConnection(`/icons/${ownedSlug}`, key)).toBe(403);
      expect(await onOneConnection(`/icons/${ownedSlug}`, ownerKey)).toBe(200);
      expect(await onOneConnection('/categories', doomed.key)).toBe(200);
      expect(await onOneConnection('/categories', doomed.key.slice(0, -1) + (doomed.key.endsWith('A') ? 'B' : 'A'))).toBe(401);
      expect(await onOneConnection('/categories', doomed.key)).toBe(200);
      await database.db.prisma.apiKey.update({ where: { publicId: doomed.publicId }, data: { revokedAt: new Date() } });
      expect(await untilRefused(() => onOneConnection('/categories', doomed.key), (status) => status)).toBe(401);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('does not look a known key up again within keyCacheSeconds, and never for a wrong secret of it', async () => {
    const fresh = await createApiKey(database.db.prisma, { accountName: 'key-cache' });
    const before = keyLookups;
    for (let i = 0; i < 3; i++) expect((await get('/categories', { 'x-api-key': fresh.key })).status).toBe(200);
    expectErrorBody(await get('/categories', { 'x-api-key': fresh.key.slice(0, -1) + (fresh.key.endsWith('A') ? 'B' : 'A') }), 401);
    expect(keyLookups - before).toBe(1);
  });
});

describe('GraphQL and OpenAPI', () => {
  it('puts /graphql behind the same key and limits', async () => {
    const query = `/graphql?query=${encodeURIComponent('{ categories { slug } }')}`;
    const refused = await get(query, {});
    expect(refused.status).toBe(401);
    expect(refused.json.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } }); // a GraphQL response there
    const ok = await get(query);
    expect(ok.status).toBe(200);
    expect(ok.json.data.categories.length).toBeGreaterThan(0);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
    expect(ok.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const premium = await get(`/graphql?query=${encodeURIComponent(`{ icon(ref: "${ownedSlug}") { svg } }`)}`, { 'x-api-key': ownerKey });
    expect(premium.json.data.icon.svg).toMatch(/^<svg/);
  });

  it('caches GraphQL results per account: an owner\'s premium markup never reaches another account', async () => {
    const stranger = await createApiKey(database.db.prisma, { accountName: 'graphql-stranger' });
    const query = `/graphql?query=${encodeURIComponent(`{ icon(ref: "${ownedSlug}") { slug name premium svg } }`)}`;
    const statementsBefore = iconStatements;
    const first = await get(query, { 'x-api-key': ownerKey });
    const afterFirst = iconStatements;
    const again = await get(query, { 'x-api-key': ownerKey });
    expect(first.json.data.icon.svg).toMatch(/^<svg/);
    expect(again.json).toEqual(first.json);
    expect(afterFirst).toBeGreaterThan(statementsBefore);
    expect(iconStatements).toBe(afterFirst); // the second came from the cache
    for (const apiKey of [key, stranger.key]) {
      const other = await get(query, { 'x-api-key': apiKey });
      expect(other.json.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(other.text).not.toContain('<svg');
    }
  });

  it('refuses GraphQL requests beyond the depth and alias limits with a 400, and runs those at the limits', async () => {
    const graphql = (query: string) => get(`/graphql?query=${encodeURIComponent(query)}`, { 'x-api-key': key, accept: 'application/graphql-response+json' });
    const refused = async (query: string, message: RegExp) => {
      const response = await graphql(query);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
      const body = JSON.parse(response.text);
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message) })]);
    };
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: categories { slug }`).join(' ')} }`;
    // Each inline fragment is one level (GraphQL Armor's count): icons, data and id make 3, so `levels` of them make levels + 3.
    const deep = (levels: number) => `{ icons { data { ${'... { '.repeat(levels)}id${' }'.repeat(levels)} } } }`;
    await refused(aliases(16), /Aliases limit of 15 exceeded, found 16/);
    await refused(deep(7), /Query depth limit of 8 exceeded/);
    for (const query of [aliases(15), deep(5)]) {
      const ok = await graphql(query);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.text).errors).toBeUndefined();
    }
  });

  it('serves /metrics openly, or only with the bearer token when METRICS_TOKEN is set', async () => {
    expect((await get('/metrics', {})).status).toBe(200);
    // A second gateway in this process, whose environment sets the token.
    const guarded = await startGatewayInProcess(database.db, { env: { ...process.env, METRICS_TOKEN: 'scrape-secret' } });
    try {
      const scrape = (headers: Record<string, string>) => get('/metrics', headers, 'GET', guarded.url);
      expectErrorBody(await scrape({}), 401, /METRICS_TOKEN/);
      expectErrorBody(await scrape({ authorization: 'Bearer wrong' }), 401);
      const allowed = await scrape({ authorization: 'Bearer scrape-secret' });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toMatch(/^# HELP icon_gateway_requests_total/m);
    } finally {
      await guarded.close();
    }
  });

  it('serves an OpenAPI 3.1 document of the routes without a key', async () => {
    const { json, status } = await get('/openapi.json', {});
    expect(status).toBe(200);
    expect(json.openapi).toBe('3.1.0');
    expect(Object.keys(json.paths).sort()).toEqual(['/categories', '/icons', '/icons/{ref}', '/icons/{ref}/similar', '/png/{prefix}/{name}.png', '/preview/{prefix}/{name}.png', '/search', '/sets', '/suggest', '/svg/{prefix}/{name}.svg', '/usage']);
    const perPage = json.paths['/icons'].get.parameters.find((p: { name: string }) => p.name === 'per_page');
    expect(perPage.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 24 });
    const sort = json.paths['/icons'].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema).toEqual({ type: 'string', enum: ['popular', 'newest', 'downloads', 'az'], default: 'popular' });
    expect(json.paths['/search'].get.parameters.find((p: { name: string }) => p.name === 'q')).toMatchObject({ required: true, schema: { maxLength: 200 } });
    expect(Object.keys(json.paths['/icons/{ref}'].get.responses)).toEqual(expect.arrayContaining(['200', '304', '401', '403', '404', '429']));
    expect(json.paths['/icons'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/IconListPage' });
    expect(json.paths['/search'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/IconPage' });
    const item = json.components.schemas.Icon;
    expect(Object.keys(item.properties).sort()).toEqual([...LIST_ITEM_KEYS, 'svg'].sort());
    expect(item.required.sort()).toEqual(LIST_ITEM_KEYS);
    expect(Object.keys(json.components.securitySchemes).sort()).toEqual(['ApiKeyHeader', 'BearerAuth']);
  });
});
