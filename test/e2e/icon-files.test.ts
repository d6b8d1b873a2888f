// Icons' files over a real socket, on a copy of the demo catalogue in PostgreSQL (PGlite when
// PostgreSQL is not reachable, except under CI=true, where that fails the run): the SVG and PNG
// routes, every customization and its 400s,
// ETag/304/HEAD/compression, sanitization of hostile markup on output, public free files under
// the anonymous limit, premium files for owners' keys and signed addresses only, CORS on files,
// and svg_url/url resolving on the gateway's own base URL.
import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { calculateSize } from '@iconify/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrlSigner } from '../../lib/url-signing.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { expectError } from '../helpers/error-body.ts';

const SECRET = 'test-secret-of-icon-files-0123456789abcdef';
let database: TestDatabase;
let gateway: RunningGateway;
let key: string;
let ownerKey: string;
let free: { slug: string; path: string };
let owned: { slug: string; path: string; id: number };
let unowned: { slug: string; path: string };

async function iconPath(where: { premium: boolean; body?: { contains: string } }, skip = 0) {
  const icon = await database.db.prisma.icon.findFirstOrThrow({ where: { ...where, published: true }, include: { set: true }, orderBy: { id: 'asc' }, skip });
  return { slug: icon.slug, id: icon.id, path: `${icon.set.prefix}/${icon.sourceName}` };
}

beforeAll(async () => {
  delete process.env.REDIS_URL;
  process.env.URL_SIGNING_SECRET = SECRET;
  // PGlite only when PostgreSQL is unreachable and the run allows it (postgresUnavailable throws
  // under CI=true): never in place of a PostgreSQL that answered with an error.
  database = await createCatalogueCopy((await postgresUnavailable()) ? 'pglite' : 'postgres');
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'reader', hourlyLimit: 100_000 })).key;
  ownerKey = (await createApiKey(prisma, { accountName: 'owner', hourlyLimit: 100_000 })).key;
  free = await iconPath({ premium: false, body: { contains: 'currentColor' } });
  owned = await iconPath({ premium: true });
  unowned = await iconPath({ premium: true }, 1);
  await grantIcons(prisma, 'owner', [owned.slug]);
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
  delete process.env.URL_SIGNING_SECRET;
});

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${gateway.url}${path}`, { method, headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

/** A request whose body is not decoded (fetch would undo Content-Encoding). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((done, fail) => {
    const request = httpRequest(`${gateway.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', fail);
    request.end();
  });
}

describe('SVG files', () => {
  it('serves a free icon without a key: image/svg+xml, strong ETag, public Cache-Control, the anonymous limit', async () => {
    const first = await get(`/svg/${free.path}.svg`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/svg+xml');
    expect(first.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+">.*<\/svg>$/s);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const second = await get(`/svg/${free.path}.svg`);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(second.text).toBe(first.text);
  });

  it('answers HEAD without a body, and 304 to If-None-Match', async () => {
    const full = await get(`/svg/${free.path}.svg`);
    const head = await get(`/svg/${free.path}.svg`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
    const notModified = await get(`/svg/${free.path}.svg`, { 'if-none-match': full.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect((await get(`/svg/${free.path}.svg?color=red`, { 'if-none-match': full.headers.get('etag')! })).status).toBe(200);
    expect((await get(`/svg/${free.path}.svg`, {}, 'DELETE')).status).toBe(405);
  });

  it('compresses with brotli or gzip when asked, to the same bytes', async () => {
    const path = `/svg/${free.path}.svg?size=512`;
    const plain = await raw(path, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gzip = await raw(path, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    const again = await raw(path, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('404 for an unknown icon or set, in JSON', async () => {
    expectError(await get('/svg/mdi/no-such-icon-anywhere.svg'), 404);
    expectError(await get('/svg/no-such-set/home.svg'), 404);
    expectError(await get('/svg/mdi.svg'), 404);
  });
});

describe('memory under distinct files', () => {
  // zlib's output is a slice of a 16 KiB block; the cache of finished files kept the slice, and
  // with it the block: 100-byte files, counted as such, each held 16 KiB (lib/owned-bytes.ts).
  it('a compressed file kept holds its own bytes: 3,000 colours of one icon, brotli, grow array buffers by under 12 MB', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const arrayBuffers = () => {
      collect();
      return process.memoryUsage().arrayBuffers;
    };
    // A free icon large enough to be compressed (256 bytes and more).
    const [large] = await database.db.prisma.$queryRaw<{ path: string }[]>`
      SELECT s.prefix || '/' || i.source_name AS path FROM icons i JOIN icon_sets s ON s.id = i.set_id
      WHERE i.published AND NOT i.premium AND length(i.body) > 600 ORDER BY i.id LIMIT 1`;
    const headers = { 'accept-encoding': 'br', 'x-api-key': key }; // a key: 3,000 files are past the anonymous limit
    await raw(`/svg/${large!.path}.svg`, headers); // the icon's data cached first
    const before = arrayBuffers();
    for (let index = 0; index < 3_000; index++) {
      const response = await raw(`/svg/${large!.path}.svg?color=%23${index.toString(16).padStart(6, '0')}`, headers);
      expect([response.status, response.headers['content-encoding']]).toEqual([200, 'br']);
    }
    // Kept as zlib made them, 1,500 files held 24.6 MB, so 3,000 would hold about 49; kept as
    // their own bytes they hold about 1.2 MB. The bound leaves room for what else the process
    // allocates meanwhile (one CI run saw 6 MB more than a quiet one), and buffers the earlier
    // tests left can be collected meanwhile, so the difference may even be below zero.
    expect(arrayBuffers() - before).toBeLessThan(12 * 1024 * 1024);
  });
});

describe('customization', () => {
  const svg = async (query: string) => (await get(`/svg/${free.path}.svg?${query}`)).text;

  it('color replaces currentColor: CSS names and hex, with or without #', async () => {
    expect(await svg('')).toContain('currentColor');
    for (const [given, written] of [
      ['red', 'red'],
      ['Tomato', 'tomato'],
      ['%23FF0000', '#ff0000'],
      ['0f0', '#0f0'],
      ['%2311223344', '#11223344'],
    ]) {
      const text = await svg(`color=${given}`);
      expect(text, given).not.toContain('currentColor');
      expect(text, given).toContain(`"${written}"`);
    }
  });

  it('size, width and height set the displayed size; the viewBox stays', async () => {
    const plain = await svg('');
    const viewBox = /viewBox="([^"]+)"/.exec(plain)![1];
    const [, , w, h] = viewBox!.split(' ').map(Number);
    // The width follows the icon's proportions as @iconify/utils computes it (calculateSize).
    expect(await svg('size=48')).toContain(`width="${calculateSize(48, w! / h!)}" height="48" viewBox="${viewBox}"`);
    expect(await svg('width=10&height=20')).toContain(`width="10" height="20"`);
    expect(await svg('height=2048')).toContain('height="2048"');
  });

  it('rotate and flip transform the body (odd quarter turns swap the box)', async () => {
    expect(await svg('rotate=90')).toMatch(/<g transform="rotate\(90 [\d.]+ [\d.]+\)">/);
    expect(await svg('rotate=2')).toMatch(/rotate\(180 /);
    expect(await svg('rotate=270deg')).toMatch(/rotate\(-90 /);
    expect(await svg('flip=horizontal')).toContain('scale(-1 1)');
    expect(await svg('flip=vertical')).toContain('scale(1 -1)');
    expect(await svg('flip=horizontal,vertical')).toMatch(/rotate\(180 /);
  });

  it('400 in the error body for anything else, naming the parameter', async () => {
    for (const [query, name] of [
      ['color=notacolour', /color/],
      ['color=red;background:url(x)', /color/],
      ['color=%23ggg', /color/],
      ['color=red&color=blue', /color is given 2 times/],
      ['size=0', /size must be a whole number from 1 to 2048/],
      ['size=2049', /size/],
      ['size=1.5', /size/],
      ['width=-3', /width/],
      ['height=abc', /height/],
      ['size=10&width=10', /not both/],
      ['rotate=45', /rotate/],
      ['flip=diagonal', /flip/],
    ] as const) {
      expectError(await get(`/svg/${free.path}.svg?${query}`), 400, name);
    }
  });
});

describe('sanitized markup', () => {
  const HOSTILE = [
    '<script>alert(1)</script>',
    '<g onload="alert(2)"><path d="M0 0h4v4z" fill="currentColor" onclick="alert(3)"/></g>',
    '<a href="javascript:alert(4)"><path d="M1 1h2v2z"/></a>',
    '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(5)"/></div></foreignObject>',
    '<use href="https://evil.example/sprite.svg#a"/><use xlink:href="#local"/><image href="https://evil.example/x.png"/>',
    '<path d="M2 2h1v1z" style="fill:url(https://evil.example/x)"/><path d="M3 3h1v1z" fill="url(#grad)"/>',
    '<style>@import url(https://evil.example/x.css)</style>',
    '<set attributeName="href" to="javascript:alert(6)"/>',
  ].join('');

  it('leaves no script, handler, foreign object or outside reference in the file or in the JSON markup', async () => {
    const victim = await iconPath({ premium: false }, 3);
    await database.db.prisma.icon.update({ where: { slug: victim.slug }, data: { body: HOSTILE } });
    const file = (await get(`/svg/${victim.path}.svg`)).text;
    const json = (await get(`/icons/${victim.slug}`, { 'x-api-key': key })).text;
    for (const markup of [file, JSON.parse(json).data.svg as string]) {
      expect(markup).not.toMatch(/<script|alert|onload|onclick|onerror|javascript:|foreignObject|evil\.example|<image|<style|@import|<a\b|<set/i);
      expect(markup).toContain('<use xlink:href="#local"');
      expect(markup).toContain('fill="url(#grad)"');
      expect(markup).toContain('<path d="M0 0h4v4z" fill="currentColor"');
    }
    expect((await get(`/svg/${victim.path}.svg`)).headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });
});

describe('premium files', () => {
  it('need the key of an owning account: without a key or with another account’s, 403 in JSON', async () => {
    expectError(await get(`/svg/${owned.path}.svg`), 403, /premium/);
    expectError(await get(`/svg/${owned.path}.svg`, { 'x-api-key': key }), 403, /premium/);
    expectError(await get(`/svg/${unowned.path}.svg`, { 'x-api-key': ownerKey }), 403);
    expectError(await get(`/png/${owned.path}.png`, { 'x-api-key': key }), 403);
    const mine = await get(`/svg/${owned.path}.svg`, { authorization: `Bearer ${ownerKey}` });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    expectError(await get(`/svg/${owned.path}.svg`, { 'x-api-key': 'not-a-key' }), 401);
  });

  it('a signed address only in an owner’s single-icon response (REST and GraphQL), never in lists', async () => {
    const mine = await get(`/icons/${owned.slug}`, { 'x-api-key': ownerKey });
    const url = new URL(JSON.parse(mine.text).data.svg_url);
    expect(url.pathname).toBe(`/svg/${owned.path}.svg`);
    expect(url.searchParams.get('expires')).toMatch(/^\d+$/);
    expect(url.searchParams.get('signature')).toMatch(/^[\w-]{43}$/);
    expect(Number(url.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(3000);
    expectError(await get(`/icons/${owned.slug}`, { 'x-api-key': key }), 403);
    const list = JSON.parse((await get('/icons?license=premium&per_page=100', { 'x-api-key': ownerKey })).text);
    for (const item of list.data) expect(item.svg_url).not.toMatch(/signature/);
    const graphql = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': ownerKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ icon(ref: "${owned.slug}") { svgUrl } }` }),
    });
    expect((await graphql.json()).data.icon.svgUrl).toMatch(/[?&]signature=/);
  });

  it('the signed address works without a key, for SVG and PNG; expired or altered, 403', async () => {
    const signed = new URL(JSON.parse((await get(`/icons/${owned.slug}`, { 'x-api-key': ownerKey })).text).data.svg_url);
    const query = signed.search;
    const ok = await get(`${signed.pathname}${query}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/svg+xml');
    expect(ok.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect((await get(`/png/${owned.path}.png${query}&size=32`)).status).toBe(200);
    const signature = signed.searchParams.get('signature')!;
    const altered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expectError(await get(`${signed.pathname}?expires=${signed.searchParams.get('expires')}&signature=${altered}`), 403, /not valid/);
    expectError(await get(`${signed.pathname}?expires=${Number(signed.searchParams.get('expires')) + 1}&signature=${signature}`), 403, /not valid/);
    expectError(await get(`/svg/${unowned.path}.svg${query}`), 403, /not valid/);
    expectError(await get(`${signed.pathname}?signature=${signature}`), 403);
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = createUrlSigner(Buffer.from(SECRET)).sign(String(owned.id), past);
    expectError(await get(`${signed.pathname}?expires=${past}&signature=${expired}`), 403, /expired/);
  });
});

describe('PNG files', () => {
  /** Width and height from a PNG's IHDR chunk. */
  const dimensions = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
  const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it('renders a real PNG of the asked size (16 to 512, default 64)', async () => {
    for (const [query, size] of [
      ['size=16', 16],
      ['size=512', 512],
      ['', 64],
      ['size=100&color=red&rotate=90', 100],
    ] as const) {
      const png = await get(`/png/${free.path}.png?${query}`);
      expect(png.status, query).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(png.bytes.subarray(0, 8).equals(SIGNATURE)).toBe(true);
      expect(Math.max(dimensions(png.bytes).width, dimensions(png.bytes).height)).toBe(size);
    }
    const red = await get(`/png/${free.path}.png?size=100&color=red`);
    expect(red.bytes.equals((await get(`/png/${free.path}.png?size=100`)).bytes)).toBe(false);
    const again = await get(`/png/${free.path}.png?size=100&color=red`, { 'if-none-match': red.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('400 outside the bounds', async () => {
    for (const size of ['15', '513', '0', 'big', '64.5']) expectError(await get(`/png/${free.path}.png?size=${size}`), 400, /size must be a whole number from 16 to 512/);
  });
});

describe('addresses in responses resolve on this gateway', () => {
  it('svg_url of every listed icon is a file here; url is on the same base', async () => {
    const { port } = new URL(gateway.url);
    const list = JSON.parse((await get('/icons?license=free&per_page=5', { 'x-api-key': key })).text);
    for (const item of list.data) {
      expect(item.svg_url).toMatch(new RegExp(`^http://localhost:${port}/svg/[^/]+/[^/]+\\.svg\\?v=1-[0-9a-f]{12}$`));
      expect(item.url).toBe(`http://localhost:${port}/en/icons/${item.slug}`);
      const file = await fetch(item.svg_url.replace('localhost', '127.0.0.1'));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/svg+xml');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('on PUBLIC_URL when it is set, never on the Host header', async () => {
    const other = await startGatewayInProcess(database.db, { env: { ...process.env, PUBLIC_URL: 'https://icons.example.com/' } });
    try {
      const response = await fetch(`${other.url}/icons/${free.slug}`, { headers: { 'x-api-key': key, host: 'evil.example' } });
      const icon = JSON.parse(await response.text()).data;
      expect(icon.svg_url).toMatch(new RegExp(`^https://icons\\.example\\.com/svg/${free.path}\\.svg\\?v=1-[0-9a-f]{12}$`));
      expect(icon.url).toBe(`https://icons.example.com/en/icons/${free.slug}`);
    } finally {
      await other.close();
    }
  });
});

describe('versioned addresses', () => {
  it('a file at its current version is immutable; without it or at another, kept for a day, same bytes', async () => {
    const icon = JSON.parse((await get(`/icons/${free.slug}`, { 'x-api-key': key })).text).data;
    const versioned = new URL(icon.svg_url);
    const current = await get(`${versioned.pathname}${versioned.search}`);
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const other of [`/svg/${free.path}.svg`, `/svg/${free.path}.svg?v=1-000000000000`, `/svg/${free.path}.svg?v=1-000000000000&color=red`]) {
      const response = await get(other);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    }
    expect((await get(`/svg/${free.path}.svg?v=1-000000000000`)).text).toBe(current.text);
    const png = await get(`/png/${free.path}.png${versioned.search}&size=32`);
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a changed icon gets a new address, and its old one is no longer immutable', async () => {
    const changing = await iconPath({ premium: false }, 7);
    const before = JSON.parse((await get(`/icons/${changing.id}`, { 'x-api-key': key })).text).data.svg_url as string;
    await database.db.prisma.$executeRaw`UPDATE icons SET body = body || '<g/>' WHERE id = ${changing.id}`;
    // Another route and ref than the one the response cache keeps: the slug.
    const after = JSON.parse((await get(`/icons/${changing.slug}`, { 'x-api-key': key })).text).data.svg_url as string;
    expect(after).not.toBe(before);
    const { digest } = (await database.db.prisma.$queryRaw<{ digest: string }[]>`SELECT body_digest AS digest FROM icons WHERE id = ${changing.id}`)[0]!;
    expect(after.endsWith(`?v=1-${digest}`)).toBe(true);
    const old = new URL(before);
    // The process keeps a free icon's data for cacheSeconds (60): a stale address is never called immutable meanwhile either.
    const response = await get(`${old.pathname}${old.search}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
  });
});

describe('CORS on files', () => {
  it('a page on another origin may read files and their refusals', async () => {
    const origin = { origin: 'https://app.example.org' };
    const preflight = await get(`/svg/${free.path}.svg`, { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    for (const response of [await get(`/svg/${free.path}.svg`, origin), await get(`/svg/${owned.path}.svg`, origin), await get(`/png/${free.path}.png?size=1`, origin)]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toMatch(/ETag/);
    }
  });
});

describe('the kept data of free icons', () => {
  it('stays within dataCacheMaxBytes: an icon that does not fit is never kept, and the oldest gives way', async () => {
    const budget = 1_700;
    // Two icons that fit the budget alone but not together, and one that never fits.
    const sized = async (min: number, max: number, count: number) => {
      const rows = await database.db.prisma.$queryRaw<{ path: string }[]>`
        SELECT s.prefix || '/' || i.source_name AS path FROM icons i JOIN icon_sets s ON s.id = i.set_id
        WHERE i.published AND NOT i.premium AND length(i.body) BETWEEN ${min} AND ${max} ORDER BY i.id LIMIT ${count}`;
      expect(rows).toHaveLength(count);
      return rows.map(({ path }) => `/svg/${path}.svg`);
    };
    const [first, second] = await sized(800, 900, 2);
    const [large] = await sized(3_000, 100_000, 1);
    const small = await withConfig(
      (config) => config.replace(/dataCacheMaxBytes: \d+/, `dataCacheMaxBytes: ${budget}`),
      (dir) => startGatewayInProcess(database.db, { dir }),
    );
    try {
      const cache = async (path: string) => {
        const response = await fetch(`${small.url}${path}`);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        return response.headers.get('x-cache');
      };
      expect([await cache(first!), await cache(first!)]).toEqual(['MISS', 'HIT']);
      expect([await cache(second!), await cache(second!)]).toEqual(['MISS', 'HIT']);
      expect(await cache(first!)).toBe('MISS');
      expect([await cache(large!), await cache(large!)]).toEqual(['MISS', 'MISS']);
    } finally {
      await small.close();
    }
  });
});
