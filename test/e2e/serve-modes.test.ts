// The same small contract through every way of serving the config: `npm start` (the node:http
// front and its bundle), `mesh dev`, and `mesh build` + `mesh start`. Each must answer the same
// paths alike: probes, metrics, the OpenAPI document, REST (refusals included) and GraphQL
// (refusals, request errors, partial results and ETags as GraphQL over HTTP says; the
// graphql-http audit gives the same verdicts).
import { execFileSync } from 'node:child_process';
import { auditServer } from 'graphql-http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { freePort, startGatewayProcess, startMeshCommand, type RunningGateway } from '../helpers/gateway.ts';

const skip = Boolean(await postgresUnavailable());

describe.skipIf(skip)('every serve mode answers the same contract', () => {
  let database: TestDatabase;
  let key: string;
  let premiumSlug: string;
  const servers: Record<string, RunningGateway> = {};

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    const { prisma } = database.db;
    key = (await createApiKey(prisma, { accountName: `serve-modes-${Date.now()}` })).key;
    premiumSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } })).slug;
    // Memory counters: each server counts alone, so the same requests get the same headers.
    // One public base URL: svg_url and url are built on it, the same in every mode (else on each one's port).
    const env = { DATABASE_URL: database.url!, REDIS_URL: '', REDIS_CLUSTER_NODES: '', PUBLIC_URL: 'https://icons.example.com' };
    execFileSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'mesh'), ['build'], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
    const [npmStart, meshDev, meshStart] = await Promise.all([
      startGatewayProcess(env),
      freePort().then((port) => startMeshCommand(['dev', '--port', String(port)], port, env)),
      freePort().then((port) => startMeshCommand(['start'], port, env)),
    ]);
    Object.assign(servers, { 'npm start': npmStart, 'mesh dev': meshDev, 'mesh start': meshStart });
    // Under mesh dev and mesh start the database opens on first use, and its first readiness
    // check may take longer than the probe's second on a busy machine: wait until each is ready.
    for (const server of Object.values(servers)) {
      for (let attempt = 0; attempt < 120; attempt++) {
        if ((await fetch(`${server.url}/readyz`)).status === 200) break;
        await new Promise((wait) => setTimeout(wait, 250));
      }
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.close()));
    await database?.drop();
  });

  /** What a client sees of the contract's requests: statuses, the headers that matter, bodies. */
  async function contract(url: string) {
    const ask = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      return {
        status: response.status,
        limit: response.headers.get('x-ratelimit-limit'),
        allow: response.headers.get('allow'),
        cacheControl: response.headers.get('cache-control'),
        type: type.split(';')[0],
        body: type.includes('json') ? JSON.parse(text) : undefined,
      };
    };
    const withKey = { headers: { 'x-api-key': key } };
    const asGraphQL = (query: string, apiKey: string | null = key) =>
      ask('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...(apiKey && { 'x-api-key': apiKey }) },
        body: JSON.stringify({ query }),
      });
    const categories = `/graphql?query=${encodeURIComponent('{ categories { slug } }')}`;
    const etag = (await fetch(`${url}${categories}`, withKey)).headers.get('etag') ?? '';
    const revalidated = await fetch(`${url}${categories}`, { headers: { 'x-api-key': key, 'if-none-match': `W/${etag}` } });
    const fetchWithKey = (input: string, init: RequestInit = {}) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), 'x-api-key': key } });
    const audit = Object.fromEntries((await auditServer({ url: `${url}/graphql`, fetchFn: fetchWithKey })).map((result) => [result.id, result.status]));
    const health = await ask('/healthz');
    const metrics = await fetch(`${url}/metrics`); // after a request it counts
    return {
      health,
      ready: await ask('/readyz'),
      metrics: { status: metrics.status, counted: /^icon_gateway_requests_total\{route="\/healthz",method="GET",status="200"\} \d+$/m.test(await metrics.text()) },
      openapi: await ask('/openapi.json'),
      noKey: await ask('/icons'),
      list: await ask('/icons?per_page=3&sort=az', withKey),
      search: await ask('/search?q=arow%20left&per_page=2', withKey),
      badParam: await ask('/icons?per_page=0', withKey),
      premium: await ask(`/icons/${premiumSlug}`, withKey),
      unknownPath: await ask('/nowhere', withKey),
      svgFile: await ask('/svg/mdi/home.svg?color=red'),
      wrongMethod: await ask('/categories', { method: 'DELETE', ...withKey }),
      graphql: await ask(`/graphql?query=${encodeURIComponent('{ categories { slug iconCount } }')}`, withKey),
      graphqlNoKey: await asGraphQL('{ categories { slug } }', null),
      graphqlTooDeep: await asGraphQL('{ __type(name: "Query") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }'),
      graphqlInvalid: await asGraphQL('{ categories { slug nope } }'),
      graphqlSubscription: await asGraphQL('subscription { categories { slug } }'),
      graphqlPartial: await asGraphQL('{ home: icon(ref: "mdi-home") { slug } missing: icon(ref: "no-such-icon") { slug } }'),
      graphqlETag: { etag, revalidated: revalidated.status },
      audit,
      graphqlPost: await ask('/graphql', { method: 'POST', headers: { ...withKey.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ categories { slug } }' }) }),
      // Over server.maxBodyBytes (100 KB by default): refused in every mode, as Yoga carries /graphql in each.
      hugeBody: await ask('/graphql', { method: 'POST', headers: { ...withKey.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ categories { slug } }', variables: { pad: 'a'.repeat(200_000) } }) }),
    };
  }

  it('answers alike under npm start, mesh dev and mesh start', async () => {
    const seen = Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([mode, server]) => [mode, await contract(server.url)] as const)));
    const reference = seen['npm start']!;
    // The reference is what the API promises, not merely what one mode happens to do.
    expect(reference.health).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(reference.ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok' } } });
    expect(reference.metrics).toEqual({ status: 200, counted: true });
    expect(reference.openapi.body.paths).toHaveProperty('/icons/{ref}');
    expect(reference.noKey).toMatchObject({ status: 401, limit: '1000', body: { error: { code: 401 } } });
    expect(reference.list).toMatchObject({ status: 200, cacheControl: 'private, no-cache', body: { meta: { page: 1, per_page: 3 } } });
    expect(reference.search.body.data[0].name).toBe('Arrow Left');
    expect(reference.badParam).toMatchObject({ status: 400, body: { error: { code: 400, message: 'per_page must be a whole number from 1 to 100 (got "0")' } } });
    expect(reference.premium.status).toBe(403);
    expect(reference.unknownPath.status).toBe(404);
    expect(reference.svgFile).toMatchObject({ status: 200, type: 'image/svg+xml', cacheControl: 'public, max-age=86400' });
    expect(reference.wrongMethod).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    expect(reference.graphql).toMatchObject({ status: 200, cacheControl: 'private, no-store' });
    expect(reference.graphql.body.data.categories.length).toBeGreaterThan(5);
    const graphqlError = (status: number, code: string) => ({ status, type: 'application/graphql-response+json', body: { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code }) })] } });
    expect(reference.graphqlNoKey).toMatchObject(graphqlError(401, 'UNAUTHENTICATED'));
    expect(reference.graphqlNoKey.body.errors[0].extensions.http).toEqual({ status: 401 });
    expect(reference.graphqlTooDeep).toMatchObject(graphqlError(400, 'GRAPHQL_VALIDATION_FAILED'));
    expect(reference.graphqlTooDeep.body.errors[0].message).toMatch(/^Query depth limit of 8 exceeded/);
    expect(reference.graphqlInvalid).toMatchObject(graphqlError(400, 'GRAPHQL_VALIDATION_FAILED'));
    expect(reference.graphqlSubscription).toMatchObject(graphqlError(400, 'GRAPHQL_VALIDATION_FAILED'));
    expect(reference.graphqlPartial).toMatchObject({ status: 200, body: { data: { home: { slug: 'mdi-home' }, missing: null }, errors: [{ path: ['missing'], extensions: { code: 'NOT_FOUND' } }] } });
    expect(reference.graphqlETag.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(reference.graphqlETag.revalidated).toBe(304);
    expect(Object.entries(reference.audit).filter(([, status]) => status !== 'ok')).toEqual([]);
    expect(reference.graphqlPost).toMatchObject({ status: 200, body: { data: { categories: expect.any(Array) } } });
    expect(reference.hugeBody).toMatchObject({ status: 413, limit: '1000', body: { errors: [{ message: 'The request body is larger than 102400 bytes', extensions: { code: 'PAYLOAD_TOO_LARGE', http: { status: 413 } } }] } });
    expect(seen['mesh dev']).toEqual(reference);
    expect(seen['mesh start']).toEqual(reference);
  });

  it('serves the pages alike: the explorer, an icon page, /docs and its assets, GraphiQL for browsers', async () => {
    const pages = async (url: string) => {
      const look = async (path: string, headers: Record<string, string> = {}) => {
        const response = await fetch(`${url}${path}`, { headers });
        const text = await response.text();
        return { status: response.status, type: response.headers.get('content-type'), etag: response.headers.get('etag'), bytes: text.length, graphiql: text.includes('renderYogaGraphiQL') };
      };
      return {
        explorer: await look('/'),
        iconPage: await look('/en/icons/mdi-home'),
        docs: await look('/docs'),
        swagger: await look('/docs/swagger-ui-bundle.js'),
        missing: await look('/explorer/missing.js'),
        graphiql: await look('/graphql', { accept: 'text/html' }),
      };
    };
    const seen: Record<string, Awaited<ReturnType<typeof pages>>> = {};
    for (const [mode, server] of Object.entries(servers)) seen[mode] = await pages(server.url);
    const reference = seen['npm start']!;
    expect(reference.explorer).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(reference.iconPage).toEqual(reference.explorer);
    expect(reference.docs).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(reference.swagger).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    expect(reference.missing).toMatchObject({ status: 404, type: 'application/json; charset=utf-8' });
    expect(reference.graphiql).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', graphiql: true });
    for (const mode of ['mesh dev', 'mesh start']) expect(seen[mode], mode).toEqual(reference);
  });
});
