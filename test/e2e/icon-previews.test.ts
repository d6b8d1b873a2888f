// Every icon's public PNG preview (`preview_url`, icon-files' preview route) over a real
// socket, on a copy of the demo catalogue in PostgreSQL (PGlite when PostgreSQL is not
// reachable, except under CI=true): a premium icon's preview is a PNG for anyone while its SVG
// stays 403; the size bound, bad input as 4xx error bodies, immutable caching at the current
// version, the watermark option, the anonymous limit, and no download counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { waitFor } from '../helpers/wait.ts';
import { expectError } from '../helpers/error-body.ts';

const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let database: TestDatabase;
let plain: RunningGateway;
let marked: RunningGateway;
let ownerKey: string;
let premium: { id: number; slug: string; path: string };
let free: { id: number; slug: string; path: string };
/** Icons no other test fetches, so that only the downloads test's own requests can count. */
let untouchedPremium: { id: number; slug: string; path: string };
let untouchedFree: { id: number; slug: string; path: string };

function edit(config: string, from: string, to: string): string {
  expect(config).toContain(from);
  return config.replace(from, to);
}

/** Downloads written within a fraction of a second, so a test can wait for them. */
const fastFlush = (config: string) => edit(edit(config, '\n            flushSeconds: 5\n', '\n            flushSeconds: 0.2\n'), 'foldSeconds: 300', 'foldSeconds: 0.3');
const watermarkedAndLimited = (config: string) =>
  edit(
    edit(fastFlush(config), 'preview: { path: /preview, minSize: 16, maxSize: 64 }', 'preview: { path: /preview, minSize: 16, maxSize: 64, watermark: { color: "#ff0000", opacity: 0.6 } }'),
    'anonymousHourlyLimit: 1000',
    'anonymousHourlyLimit: 4',
  );

async function iconOf(where: { premium: boolean }, skip = 0) {
  const icon = await database.db.prisma.icon.findFirstOrThrow({ where: { ...where, published: true }, include: { set: true }, orderBy: { id: 'asc' }, skip });
  return { id: icon.id, slug: icon.slug, path: `${icon.set.prefix}/${encodeURIComponent(icon.sourceName)}` };
}

async function get(gateway: RunningGateway, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const downloadsOf = async (id: number) => (await database.db.prisma.icon.findUniqueOrThrow({ where: { id }, select: { downloads: true } })).downloads;

beforeAll(async () => {
  database = await createCatalogueCopy((await postgresUnavailable()) ? 'pglite' : 'postgres');
  ownerKey = (await createApiKey(database.db.prisma, { accountName: 'preview-owner', hourlyLimit: 100_000 })).key;
  premium = await iconOf({ premium: true });
  free = await iconOf({ premium: false });
  untouchedPremium = await iconOf({ premium: true }, 1);
  untouchedFree = await iconOf({ premium: false }, 1);
  await grantIcons(database.db.prisma, 'preview-owner', [premium.slug, untouchedPremium.slug]);
  plain = await withConfig(fastFlush, (dir) => startGatewayInProcess(database.db, { dir, env }));
  marked = await withConfig(watermarkedAndLimited, (dir) => startGatewayInProcess(database.db, { dir, env }));
});
afterAll(async () => {
  await plain?.close();
  await marked?.close();
  await database?.drop();
});

describe('preview_url', () => {
  it('is on every item of /icons, /search and /icons/{ref}, and in GraphQL', async () => {
    const headers = { 'x-api-key': ownerKey };
    const list = await get(plain, '/icons?license=premium&per_page=3', headers);
    const items = JSON.parse(list.text).data as { slug: string; preview_url: string; svg_url: string }[];
    expect(items.length).toBe(3);
    for (const item of items) expect(item.preview_url).toMatch(/^http:\/\/localhost:\d+\/preview\/[^/]+\/[^/]+\.png\?v=[\w-]+$/);
    const found = JSON.parse((await get(plain, `/search?q=${encodeURIComponent(items[0]!.slug.split('-')[0]!)}&per_page=5`, headers)).text).data;
    expect(found.length).toBeGreaterThan(0);
    for (const item of found) expect(item.preview_url).toMatch(/\/preview\/.+\.png\?v=/);
    const one = JSON.parse((await get(plain, `/icons/${premium.slug}`, headers)).text).data;
    expect(one.preview_url).toBe(`${new URL(one.svg_url).origin}/preview/${premium.path}.png?v=${new URL(one.svg_url).searchParams.get('v')}`);
    const graphql = await fetch(`${plain.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ icon(ref: "${free.slug}") { previewUrl } }` }),
    });
    expect((await graphql.json()).data.icon.previewUrl).toMatch(new RegExp(`/preview/${free.path}\\.png\\?v=`));
  });
});

describe('the preview route', () => {
  it("gives a premium icon's preview to anyone as a PNG of at most 64 px, while its SVG and markup stay for owners", async () => {
    const preview = await get(plain, `/preview/${premium.path}.png`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/png');
    expect(Math.max(...Object.values(pngSize(preview.bytes)))).toBe(64);
    expect(preview.text).not.toContain('<svg');
    expect(preview.headers.get('x-ratelimit-limit')).toBe('1000');
    expectError(await get(plain, `/svg/${premium.path}.svg`), 403);
    expectError(await get(plain, `/png/${premium.path}.png`), 403);
    // The preview renderer's right to the body is not a client's: GraphQL still refuses it.
    const { key } = await createApiKey(database.db.prisma, { accountName: 'preview-stranger', hourlyLimit: 1000 });
    const [prefix, name] = premium.path.split('/').map(decodeURIComponent);
    const file = await fetch(`${plain.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($p: String!, $n: String!) { iconFile(prefix: $p, name: $n) { body } }', variables: { p: prefix, n: name } }),
    });
    const answer = await file.json();
    expect(answer.data?.iconFile ?? null).toBeNull();
    expect(answer.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('bounds the size, and answers bad input and unknown icons with 4xx error bodies', async () => {
    expect(Math.max(...Object.values(pngSize((await get(plain, `/preview/${premium.path}.png?size=16`)).bytes)))).toBe(16);
    expectError(await get(plain, `/preview/${premium.path}.png?size=65`), 400, /size must be a whole number from 16 to 64/);
    expectError(await get(plain, `/preview/${premium.path}.png?size=512`), 400, /size/);
    expectError(await get(plain, `/preview/${premium.path}.png?size=big`), 400, /size/);
    expectError(await get(plain, `/preview/${premium.path}.png?size=20&size=30`), 400, /once/);
    expectError(await get(plain, `/preview/${premium.path.split('/')[0]}/no-such-icon-here.png`), 404);
    expectError(await get(plain, '/preview/no-such-set/home.png'), 404);
    const post = await fetch(`${plain.url}/preview/${premium.path}.png`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('is public and immutable at its current version, and answers 304 to its ETag', async () => {
    const { preview_url: address } = JSON.parse((await get(plain, `/icons/${free.slug}`, { 'x-api-key': ownerKey })).text).data;
    const { pathname, search } = new URL(address);
    const versioned = await get(plain, `${pathname}${search}`);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const premiumPreview = await get(plain, `/preview/${premium.path}.png`);
    expect(premiumPreview.headers.get('cache-control')).toBe('public, max-age=86400');
    const again = await get(plain, `/preview/${premium.path}.png`, { 'if-none-match': premiumPreview.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  it('is never counted as a download', async () => {
    const icons = [untouchedPremium, untouchedFree];
    const before = await Promise.all(icons.map((icon) => downloadsOf(icon.id)));
    for (let k = 0; k < 5; k++) {
      for (const icon of icons) expect((await get(plain, `/preview/${icon.path}.png?size=${20 + k}`)).status).toBe(200);
    }
    // One real download of each after the previews: once both arrive, any counted preview would have too.
    expect((await get(plain, `/svg/${untouchedPremium.path}.svg`, { 'x-api-key': ownerKey })).status).toBe(200);
    expect((await get(plain, `/svg/${untouchedFree.path}.svg`)).status).toBe(200);
    await waitFor(async () => (await downloadsOf(untouchedPremium.id)) > before[0]! && (await downloadsOf(untouchedFree.id)) > before[1]!, 'the two real downloads');
    expect(await Promise.all(icons.map((icon) => downloadsOf(icon.id)))).toEqual([before[0]! + 1, before[1]! + 1]);
  });
});

describe('a gateway with a watermark and an anonymous limit of 4', () => {
  it("watermarks premium icons' previews only", async () => {
    const plainPremium = await get(plain, `/preview/${premium.path}.png`);
    const markedPremium = await get(marked, `/preview/${premium.path}.png`);
    expect(markedPremium.status).toBe(200);
    expect(pngSize(markedPremium.bytes)).toEqual(pngSize(plainPremium.bytes));
    expect(markedPremium.bytes.equals(plainPremium.bytes)).toBe(false);
    expect(markedPremium.headers.get('etag')).not.toBe(plainPremium.headers.get('etag'));
    const plainFree = await get(plain, `/preview/${free.path}.png`);
    const markedFree = await get(marked, `/preview/${free.path}.png`);
    expect(markedFree.bytes.equals(plainFree.bytes)).toBe(true);
  });

  it('counts previews under the anonymous per-address limit: 429 once it is spent', async () => {
    let last = await get(marked, `/preview/${premium.path}.png?size=32`);
    while (last.status === 200) {
      expect(last.headers.get('x-ratelimit-limit')).toBe('4');
      last = await get(marked, `/preview/${premium.path}.png?size=32`);
    }
    expectError(last, 429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    // A key's own limit is apart from the address's.
    expect((await get(marked, `/preview/${premium.path}.png`, { 'x-api-key': ownerKey })).status).toBe(200);
  });
});
