// CORS over a real socket, as a browser on another origin meets it: preflights answered 204
// without a key and without counting against a limit, and the CORS headers on every kind of
// response (200, 304, 401, 404, 405, 429, GraphQL, the OpenAPI document); with a list of
// origins, only those are allowed and every answer varies on Origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;
const ORIGIN = 'https://app.example.org';

beforeAll(async () => {
  delete process.env.REDIS_URL;
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'cors', hourlyLimit: 5 })).key;
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

const preflightHeaders = (method = 'GET', headers = 'x-api-key') => ({ origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers });

function expectReadableCrossOrigin(response: Response, allowOrigin = '*') {
  expect(response.headers.get('access-control-allow-origin')).toBe(allowOrigin);
  const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'etag', 'x-request-id', 'x-cache']) expect(exposed).toContain(name);
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
}

describe('preflight', () => {
  it('is answered 204 on every path (REST, GraphQL, documents, unknown) without a key', async () => {
    for (const [path, method] of [
      ['/icons', 'GET'],
      ['/icons/arrow-left', 'GET'],
      ['/graphql', 'POST'],
      ['/openapi.json', 'GET'],
      ['/nowhere', 'GET'],
    ] as const) {
      const response = await fetch(`${gateway.url}${path}`, { method: 'OPTIONS', headers: preflightHeaders(method, 'x-api-key, content-type') });
      expect(response.status, path).toBe(204);
      expect(await response.text()).toBe('');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toMatch(/GET.*HEAD.*POST.*OPTIONS/);
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'if-none-match', 'content-type']));
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('is not counted against the key’s limit', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${gateway.url}/categories`, { method: 'OPTIONS', headers: { ...preflightHeaders(), 'x-api-key': key } });
      expect(response.status).toBe(204);
      expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    const first = await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': key, origin: ORIGIN } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('4');
  });
});

describe('CORS headers on every response', () => {
  it('200, 304, 401, 404, 405, HEAD and the OpenAPI document', async () => {
    const other = (await createApiKey(database.db.prisma, { accountName: 'cors-other', hourlyLimit: 1000 })).key;
    const ok = await fetch(`${gateway.url}/icons?per_page=2`, { headers: { 'x-api-key': other, origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expectReadableCrossOrigin(ok);
    const notModified = await fetch(`${gateway.url}/icons?per_page=2`, { headers: { 'x-api-key': other, origin: ORIGIN, 'if-none-match': ok.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    expectReadableCrossOrigin(notModified);
    for (const [path, init, status] of [
      ['/icons', { headers: { origin: ORIGIN } }, 401],
      ['/nowhere', { headers: { origin: ORIGIN, 'x-api-key': other } }, 404],
      ['/icons', { method: 'DELETE', headers: { origin: ORIGIN, 'x-api-key': other } }, 405],
      ['/icons', { method: 'HEAD', headers: { origin: ORIGIN, 'x-api-key': other } }, 200],
      ['/openapi.json', { headers: { origin: ORIGIN } }, 200],
    ] as const) {
      const response = await fetch(`${gateway.url}${path}`, init as RequestInit);
      expect(response.status, path).toBe(status);
      expectReadableCrossOrigin(response);
    }
  });

  it('429 once the limit is used up, with its headers readable', async () => {
    const tight = (await createApiKey(database.db.prisma, { accountName: 'cors-tight', hourlyLimit: 1 })).key;
    await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': tight } });
    const refused = await fetch(`${gateway.url}/categories`, { headers: { 'x-api-key': tight, origin: ORIGIN } });
    expect(refused.status).toBe(429);
    expectReadableCrossOrigin(refused);
  });

  it('GraphQL answers carry the same headers (not GraphQL Yoga’s own CORS)', async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'x-api-key': (await createApiKey(database.db.prisma, { accountName: 'cors-graphql' })).key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ categories { slug } }' }),
    });
    expect(response.status).toBe(200);
    expectReadableCrossOrigin(response);
  });
});

describe('a list of allowed origins', () => {
  it('allows only those, and every answer varies on Origin', async () => {
    await withConfig(
      (config) => config.replace(/origins: \["\*"\]/, `origins: [${ORIGIN}]`),
      async (dir) => {
        const listed = await startGatewayInProcess(database.db, { dir });
        try {
          const allowed = await fetch(`${listed.url}/openapi.json`, { headers: { origin: ORIGIN } });
          expectReadableCrossOrigin(allowed, ORIGIN);
          expect(allowed.headers.get('vary')).toMatch(/Origin/);
          const stranger = await fetch(`${listed.url}/openapi.json`, { headers: { origin: 'https://evil.example' } });
          expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
          expect(stranger.headers.get('vary')).toMatch(/Origin/);
          const refusedPreflight = await fetch(`${listed.url}/icons`, { method: 'OPTIONS', headers: { ...preflightHeaders(), origin: 'https://evil.example' } });
          expect(refusedPreflight.status).toBe(403);
          expect((await refusedPreflight.json()).error.code).toBe(403);
          expect(refusedPreflight.headers.get('access-control-allow-origin')).toBeNull();
        } finally {
          await listed.close();
        }
      },
    );
  });
});
