// The gateway served by Yoga alone, as under `mesh dev` and `mesh start` (no node:http front):
// the pipeline runs in Yoga's hooks and REST operations run through Yoga's envelope, so the
// same paths answer alike (GraphQL refusals and request errors included); and the GraphQL
// cache must still keep each account's results to itself. Here Yoga's own fetch entry point carries the requests, with the project's
// .meshrc.yaml gateway config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createYoga } from 'graphql-yoga';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { createGateway, GATEWAY_PLUGIN_NAME, type Gateway } from '../../gateway/gateway.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';

let database: TestDatabase;
let gateway: Gateway;
let yoga: ReturnType<typeof createYoga>;
let ownerKey: string;
let strangerKey: string;
let ownedSlug: string;
let iconStatements = 0;
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** The gateway's options as the project's .meshrc.yaml gives them. */
function projectGatewayOptions(): unknown {
  const config = parse(readFileSync(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8'), { merge: true }) as { plugins: Record<string, unknown>[] };
  return config.plugins.find((entry) => GATEWAY_PLUGIN_NAME in entry)![GATEWAY_PLUGIN_NAME];
}

beforeAll(async () => {
  database = await createCatalogueCopy('pglite', { onQuery: (sql) => void (/\bicons\b/.test(sql) && iconStatements++) });
  const { prisma } = database.db;
  ownerKey = (await createApiKey(prisma, { accountName: 'yoga-owner' })).key;
  strangerKey = (await createApiKey(prisma, { accountName: 'yoga-stranger' })).key;
  ownedSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } })).slug;
  await grantIcons(prisma, 'yoga-owner', [ownedSlug]);
  gateway = createGateway(projectGatewayOptions(), { database: async () => database.db, env: {} });
  yoga = createYoga({ schema: createCatalogueSchema(), plugins: [gateway.yogaPlugin] });
  // Read the list index now, so that its read in the background is not counted as a request's statements.
  await listIndexOf(database.db.reads).build();
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

async function ask(key: string, query: string) {
  const response = await yoga.fetch(`http://yoga.test/graphql?query=${encodeURIComponent(query)}`, { headers: { 'x-api-key': key } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GraphQL through Yoga alone', () => {
  it("caches an owner's premium markup for the owner only, never for another account", async () => {
    const query = `{ icon(ref: "${ownedSlug}") { slug premium svg } }`;
    const first = await ask(ownerKey, query);
    expect(first.text).toMatch(/"svg":"<svg/);
    const afterFirst = iconStatements;
    const again = await ask(ownerKey, query);
    expect(again.text).toBe(first.text);
    expect(iconStatements).toBe(afterFirst); // from the cache
    const stranger = await ask(strangerKey, query);
    expect(stranger.text).not.toContain('<svg');
    expect(stranger.text).toContain('FORBIDDEN');
  });

  it('still refuses a request without a key, as a GraphQL response, and marks GraphQL responses private', async () => {
    const refused = await yoga.fetch('http://yoga.test/graphql?query=%7Bcategories%7Bslug%7D%7D', { headers: { accept: GRAPHQL_RESPONSE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(refused.headers.get('content-type')).toBe(`${GRAPHQL_RESPONSE}; charset=utf-8`);
    expect(await refused.json()).toEqual({ errors: [{ message: expect.stringMatching(/API key/), extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } }] });
    const ok = await ask(ownerKey, '{ categories { slug } }');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers 429 as a GraphQL response with Retry-After', async () => {
    const limited = (await createApiKey(database.db.prisma, { accountName: 'yoga-limited', hourlyLimit: 1 })).key;
    expect((await ask(limited, '{ categories { slug } }')).status).toBe(200);
    const refused = await ask(limited, '{ categories { slug } }');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(refused.text).errors[0].extensions).toEqual({ code: 'RATE_LIMITED', http: { status: 429 } });
  });

  it('answers request errors with 400 and a code, a missing icon on its field only, and quoted ETags', async () => {
    const post = (query: string) =>
      yoga.fetch('http://yoga.test/graphql', { method: 'POST', headers: { 'x-api-key': ownerKey, 'content-type': 'application/json', accept: GRAPHQL_RESPONSE }, body: JSON.stringify({ query }) });
    const subscription = await post('subscription { categories { slug } }');
    expect(subscription.status).toBe(400);
    expect(await subscription.json()).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] });
    const partial = await post(`{ owned: icon(ref: "${ownedSlug}") { slug } missing: icon(ref: "no-such-icon") { slug } }`);
    expect(partial.status).toBe(200);
    expect(await partial.json()).toMatchObject({ data: { owned: { slug: ownedSlug }, missing: null }, errors: [{ path: ['missing'], extensions: { code: 'NOT_FOUND' } }] });
    const first = await ask(ownerKey, '{ tags { slug } }');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const revalidated = await yoga.fetch(`http://yoga.test/graphql?query=${encodeURIComponent('{ tags { slug } }')}`, { headers: { 'x-api-key': ownerKey, 'if-none-match': `W/${etag}` } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });
});

describe('REST and probes through Yoga alone', () => {
  const get = (path: string, key?: string) => yoga.fetch(`http://yoga.test${path}`, { headers: key ? { 'x-api-key': key } : {} });

  it('answers the REST routes as the front does, from the same envelope and context', async () => {
    const list = await get('/icons?per_page=2&sort=az', ownerKey);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const body = (await list.json()) as { data: { slug: string }[]; meta: Record<string, number> };
    expect(body.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(body.data).toHaveLength(2);
    const owned = await get(`/icons/${ownedSlug}`, ownerKey);
    expect(owned.status).toBe(200);
    expect(((await owned.json()) as { data: { svg: string } }).data.svg).toMatch(/^<svg/);
    expect((await get(`/icons/${ownedSlug}`, strangerKey)).status).toBe(403);
    const broken = await get('/icons?per_page=101', ownerKey);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: { code: 400, message: 'per_page must be a whole number from 1 to 100 (got "101")' } });
    expect((await get('/nowhere', ownerKey)).status).toBe(404);
  });

  it('serves the probes, the metrics and the OpenAPI document without a key', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await get('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    const metrics = await (await get('/metrics')).text();
    expect(metrics).toMatch(/icon_gateway_requests_total\{route="\/icons",method="GET",status="200"\} \d+/);
    expect(((await (await get('/openapi.json')).json()) as { paths: Record<string, unknown> }).paths).toHaveProperty('/icons/{ref}');
  });
});

describe('unexpected failures through Yoga alone', () => {
  let broken: TestDatabase;
  let brokenGateway: Gateway;
  let brokenYoga: ReturnType<typeof createYoga>;

  beforeAll(async () => {
    // Anonymous callers, so no key lookup: the failure happens in the resolvers. The database
    // is closed under the gateway, whose queries then fail with the driver's own message.
    const options = JSON.parse(JSON.stringify(projectGatewayOptions()).replace('"allowAnonymous":false', '"allowAnonymous":true').replace('"internalErrorMessage":"Internal server error"', '"internalErrorMessage":"Something went wrong on our side"'));
    broken = await createCatalogueCopy('pglite');
    brokenGateway = createGateway(options, { database: async () => broken.db, env: {} });
    // Mesh serves GraphQL with Yoga's own masking off; the gateway must not rely on it.
    brokenYoga = createYoga({ schema: createCatalogueSchema(), plugins: [brokenGateway.yogaPlugin], maskedErrors: false });
    await broken.db.close();
  });
  afterAll(async () => {
    await brokenGateway?.close();
    await broken?.drop().catch(() => {});
  });

  it('answers GraphQL with the configured message and code, never the cause', async () => {
    const response = await brokenYoga.fetch(`http://yoga.test/graphql?query=${encodeURIComponent('{ categories { slug } }')}`);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors.map((error) => [error.message, error.extensions.code])).toEqual([['Something went wrong on our side', 'INTERNAL_SERVER_ERROR']]);
    expect(JSON.stringify(body)).not.toMatch(/pglite|closed|prisma/i);
  });

  it('answers REST with a 500 in the error body and the same message', async () => {
    const response = await brokenYoga.fetch('http://yoga.test/categories');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 500, message: 'Something went wrong on our side' } });
  });
});
