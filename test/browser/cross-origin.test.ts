// The API as a page on another origin meets it in a real browser (chromium enforces CORS, not
// a test's reading of headers): a page served by a second tiny server calls every endpoint with
// its key, reads the exposed headers (limits, ETag, request id, Retry-After), revalidates with
// If-None-Match; and <img src=svg_url> loads free icons and an owner's signed premium address,
// and not a premium file for anyone else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { browserUnavailable, launchBrowser, type Browser } from '../helpers/browser.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const skip = browserUnavailable();
const LIMIT = 12;

describe.skipIf(skip)('a page on another origin', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  let key: string;
  let ownerKey: string;
  let premiumSlug: string;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    process.env.URL_SIGNING_SECRET = 'cross-origin-tests-signing-secret-0123456789';
    database = await createCatalogueCopy('pglite');
    const { prisma } = database.db;
    key = (await createApiKey(prisma, { accountName: 'other-origin', hourlyLimit: LIMIT })).key;
    ownerKey = (await createApiKey(prisma, { accountName: 'other-origin-owner', hourlyLimit: 1_000 })).key;
    premiumSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } })).slug;
    await grantIcons(prisma, 'other-origin-owner', [premiumSlug]);
    gateway = await startGatewayInProcess(database.db);
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>another site</title><p>another site'));
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => site?.close(closed));
    await gateway?.close();
    await database?.drop();
    delete process.env.URL_SIGNING_SECRET;
  });

  it('calls every endpoint with its key and reads the exposed headers', async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${siteOrigin}/`);
    const api = gateway.url.replace('127.0.0.1', 'localhost');
    const results = await page.evaluate(
      async ({ api, key, premiumSlug }) => {
        const read = (response: Response) => ({
          status: response.status,
          limit: response.headers.get('X-RateLimit-Limit'),
          remaining: response.headers.get('X-RateLimit-Remaining'),
          reset: response.headers.get('X-RateLimit-Reset'),
          etag: response.headers.get('ETag'),
          requestId: response.headers.get('X-Request-Id'),
          retryAfter: response.headers.get('Retry-After'),
          type: response.headers.get('Content-Type'),
        });
        const headers = { 'X-API-Key': key };
        const out: Record<string, ReturnType<typeof read>> = {};
        for (const path of ['/icons?per_page=2', '/icons/mdi-home', '/categories', '/search?q=arow%20left', '/openapi.json', `/icons/${premiumSlug}`]) {
          out[path] = read(await fetch(`${api}${path}`, { headers }));
        }
        const etag = out['/icons/mdi-home']!.etag!;
        out.revalidated = read(await fetch(`${api}/icons/mdi-home`, { headers: { ...headers, 'If-None-Match': etag } }));
        out.bearer = read(await fetch(`${api}/categories`, { headers: { Authorization: `Bearer ${key}` } }));
        out.graphql = read(await fetch(`${api}/graphql`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ categories { slug } }' }) }));
        out.noKey = read(await fetch(`${api}/icons`));
        for (let i = 0; i < 12; i++) out.last = read(await fetch(`${api}/categories`, { headers }));
        return out;
      },
      { api, key, premiumSlug },
    );
    for (const path of ['/icons?per_page=2', '/icons/mdi-home', '/categories', '/search?q=arow%20left']) {
      const result = results[path]!;
      expect(result.status, path).toBe(200);
      expect(result.limit, path).toBe(String(LIMIT));
      expect(Number(result.remaining), path).toBeGreaterThanOrEqual(0);
      expect(Number(result.reset), path).toBeGreaterThan(Date.now() / 1000);
      expect(result.etag, path).toMatch(/^"/);
      expect(result.requestId, path).toMatch(/^[\w-]{8,}/);
    }
    expect(results['/openapi.json']).toMatchObject({ status: 200, type: expect.stringMatching(/json/) });
    expect(results[`/icons/${premiumSlug}`]).toMatchObject({ status: 403, limit: String(LIMIT) });
    expect(results.revalidated).toMatchObject({ status: 304, etag: results['/icons/mdi-home']!.etag });
    expect(results.bearer!.status).toBe(200);
    expect(results.graphql).toMatchObject({ status: 200, limit: String(LIMIT) });
    expect(results.noKey!.status).toBe(401);
    expect(results.last).toMatchObject({ status: 429, remaining: '0' });
    expect(Number(results.last!.retryAfter)).toBeGreaterThan(0);
    // The browser logs the refusals the page asked for (403, 401, 429); nothing else may fail (no CORS error).
    expect(problems.filter((problem) => !/status of (401|403|429)/.test(problem))).toEqual([]);
    await page.close();
  });

  it('<img src=svg_url> loads a free icon and an owner’s signed premium address, and not a premium file for others', async () => {
    const get = async (path: string, apiKey: string) => (await (await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': apiKey } })).json()) as { data: { svg_url: string } & { svg_url: string }[] };
    const free = (await get('/icons/mdi-home', ownerKey)).data.svg_url;
    const signed = (await get(`/icons/${premiumSlug}`, ownerKey)).data.svg_url;
    const listed = (await get(`/search?q=${encodeURIComponent(premiumSlug.replace(/-/g, ' '))}&license=premium&per_page=100`, ownerKey)).data;
    const unsigned = (listed as unknown as { svg_url: string; slug?: string }[]).map((item) => item.svg_url).find((url) => url.includes(premiumSlug.split('-').slice(1).join('-')))!;
    expect(signed).not.toBe(unsigned);
    const { page } = await browser.page();
    await page.goto(`${siteOrigin}/`);
    const loaded = await page.evaluate(
      (sources) =>
        Promise.all(
          sources.map(
            (src) =>
              new Promise<boolean>((done) => {
                const img = new Image();
                img.onload = () => done(img.naturalWidth > 0);
                img.onerror = () => done(false);
                img.src = src;
                document.body.append(img);
              }),
          ),
        ),
      [free, signed, unsigned],
    );
    expect(loaded).toEqual([true, true, false]);
    await browser.screenshot(page, 'other-origin-images');
    await page.close();
  });
});
