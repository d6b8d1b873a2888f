// The pages over a real socket (what a browser gets, without one): the explorer, icon pages,
// /docs and GraphiQL are public, never counted, typed, validated (ETag, 304), versioned for long
// caching, gzipped when asked, refer to nothing outside the gateway, and no request path reaches
// a file that is not one of them.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;

beforeAll(async () => {
  delete process.env.REDIS_URL;
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'web-pages', hourlyLimit: 50 })).key;
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

/** A GET with the path sent exactly as written (fetch and URL resolve `..`). */
function getAsIs(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((done, fail) => {
    const req = request(`${gateway.url}${path}`, { path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Addresses in src/href/url() that leave the gateway (absolute http(s) or protocol-relative). */
function externalReferences(html: string): string[] {
  return [...html.matchAll(/(?:src|href|action)\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)|url\(\s*["']?((?:https?:)?\/\/[^"')]+)/gi)].map((match) => match[1] ?? match[2]!);
}

const PAGES = [
  ['/', 'explorer'],
  ['/en/icons/mdi-arrow-left', 'icon page'],
  ['/docs', 'docs'],
] as const;

describe('pages', () => {
  it.each(PAGES)('%s (%s) is HTML, needs no key, is not counted, and is revalidated by its ETag', async (path) => {
    const response = await fetch(`${gateway.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(externalReferences(html)).toEqual([]);
    const again = await fetch(`${gateway.url}${path}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('the explorer and an icon page are the same page, and an icon page needs a locale and a slug', async () => {
    const [home, icon] = await Promise.all(['/', '/fr/icons/tabler-home'].map((path) => fetch(`${gateway.url}${path}`).then((r) => r.text())));
    expect(icon).toBe(home);
    expect(home).toContain('<label for="key">API key</label>');
    for (const path of ['/en/icons/', '/en/icons/a/b', '/english-and-more/icons/x']) expect((await fetch(`${gateway.url}${path}`)).status, path).toBe(404);
  });

  it('the icon pages are where `url` points: every url of a search resolves to a page', async () => {
    const { data } = (await (await fetch(`${gateway.url}/search?q=arrow&per_page=5`, { headers: { 'x-api-key': key } })).json()) as { data: { url: string }[] };
    expect(data.length).toBe(5);
    for (const { url } of data) {
      const page = await fetch(`${gateway.url}${new URL(url).pathname}`);
      expect(page.status, url).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('HEAD answers like GET without a body; other methods are 405 in the error body', async () => {
    const head = await fetch(`${gateway.url}/docs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await head.text()).toBe('');
    const post = await fetch(`${gateway.url}/`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ error: { code: 405, message: 'POST is not allowed on /' } });
  });
});

describe('assets', () => {
  it('the pages refer to versioned assets, kept a year; the same path unversioned is revalidated', async () => {
    const html = await (await fetch(`${gateway.url}/docs`)).text();
    const scripts = [...html.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.some((src) => /^\/docs\/swagger-ui-bundle\.js\?v=[\w-]+$/.test(src))).toBe(true);
    for (const src of scripts) {
      const versioned = await fetch(`${gateway.url}${src}`);
      expect(versioned.status, src).toBe(200);
      expect(versioned.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const plain = await fetch(`${gateway.url}${src.replace(/\?.*/, '')}?v=stale`);
      expect(plain.headers.get('cache-control')).toBe('no-cache');
      expect(plain.headers.get('etag')).toBe(versioned.headers.get('etag'));
    }
  });

  it('Swagger UI comes from the pinned swagger-ui-dist package, gzipped when the client accepts it', async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const file = createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js');
    const plain = await fetch(`${gateway.url}/docs/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(await readFile(file))).toBe(true);
    const gzipped = await new Promise<{ encoding?: string; vary?: string; bytes: number }>((done, fail) => {
      request(`${gateway.url}/docs/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => done({ encoding: res.headers['content-encoding'], vary: res.headers.vary, bytes }));
      })
        .on('error', fail)
        .end();
    });
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.vary).toBe('Accept-Encoding');
    expect(gzipped.bytes).toBeLessThan((await readFile(file)).length / 2);
  });

  it.each([
    '/explorer/nope.js',
    '/docs/index.html',
    '/docs/swagger-ui.js.map',
    '/explorer/../package.json',
    '/explorer/%2e%2e/%2e%2e/package.json',
    '/docs/..%2f..%2fpackage.json',
    '/docs/../../.data/demo-api-key.txt',
    '/explorer//etc/passwd',
  ])('%s is 404 in the error body (no file outside the listed ones is reachable)', async (path) => {
    const response = await getAsIs(path);
    expect(response.status).toBe(404);
    expect(response.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 404 } });
  });
});

describe('GraphiQL on /graphql', () => {
  it('is the page a browser gets (Accept: text/html), with its assets inline, no CDN, and the key header ready', async () => {
    const response = await fetch(`${gateway.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    const html = await response.text();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/);
    expect(externalReferences(html)).toEqual([]);
    expect(html).toContain(JSON.stringify(JSON.stringify({ 'X-API-Key': '' }, null, 2)));
  });

  it('GraphQL requests are still GraphQL: a GET with a query, or without Accept: text/html', async () => {
    const query = await fetch(`${gateway.url}/graphql?query=${encodeURIComponent('{categories{slug}}')}`, { headers: { accept: 'text/html, application/json', 'x-api-key': key } });
    expect(query.headers.get('content-type')).toMatch(/json/);
    expect(((await query.json()) as { data: { categories: unknown[] } }).data.categories.length).toBeGreaterThan(0);
    const noKey = await fetch(`${gateway.url}/graphql`, { headers: { accept: 'application/json' } });
    expect(noKey.headers.get('content-type')).toMatch(/json/);
    expect(noKey.status).not.toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('names the pages in its introduction', async () => {
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as { info: { description: string } };
    expect(document.info.description).toMatch(/\*\*In a browser\.\*\* The explorer \(`\/`\)/);
    expect(document.info.description).toContain('`/docs`');
  });
});
