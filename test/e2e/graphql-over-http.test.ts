// /graphql answers as GraphQL over HTTP says, over a real socket with the project's .meshrc.yaml
// (GraphQL Armor included): the gateway's own refusals (401, 429, 405) are GraphQL responses
// with extensions.code and extensions.http.status, while REST paths keep the specification's
// body; documents that never run (parse, validation, Armor's limits, subscriptions) are 400 for
// application/graphql-response+json and 200 for application/json, without data and with a code;
// executed operations are 200 with their errors on the fields (one missing icon among aliases
// nulls only its own field); the ETag is a quoted entity-tag; and the graphql-http audit passes.
import { auditServer } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;
let ownerKey: string;
let freeSlug: string;
let ownedSlug: string;
let unownedSlug: string;

beforeAll(async () => {
  delete process.env.REDIS_URL; // memory store for this suite
  database = await createCatalogueCopy('pglite');
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'graphql-reader', hourlyLimit: 100_000 })).key;
  ownerKey = (await createApiKey(prisma, { accountName: 'graphql-owner', hourlyLimit: 100_000 })).key;
  freeSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: false, published: true }, orderBy: { id: 'asc' } })).slug;
  const premium = await prisma.icon.findMany({ where: { premium: true, published: true }, orderBy: { id: 'asc' }, take: 2 });
  ownedSlug = premium[0]!.slug;
  unownedSlug = premium[1]!.slug;
  await grantIcons(prisma, 'graphql-owner', [ownedSlug]);
  gateway = await startGatewayInProcess(database.db);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

/** A JSON body as the tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: each assertion checks the shape it needs
type Json = any;

interface Asked {
  status: number;
  headers: Headers;
  /** The media type of the response, without parameters. */
  type: string;
  text: string;
  json: Json;
}

async function ask(path: string, init: RequestInit = {}): Promise<Asked> {
  const response = await fetch(`${gateway.url}${path}`, init);
  const text = await response.text();
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!;
  return { status: response.status, headers: response.headers, type, text, json: /json/.test(type) && text ? JSON.parse(text) : undefined };
}

/** POST /graphql with a JSON body, as `accept` (none: no Accept header) and with `apiKey` (none: no key). */
function graphql(query: string, { accept, apiKey = key, variables }: { accept?: string; apiKey?: string | null; variables?: Record<string, unknown> } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (accept) headers.accept = accept;
  if (apiKey) headers['x-api-key'] = apiKey;
  return ask('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
}

/** A GraphQL response that carries one error and no data. */
function expectOneError(asked: Asked, expected: { status: number; type: string; code: string; message: RegExp }) {
  expect({ status: asked.status, type: asked.type }).toEqual({ status: expected.status, type: expected.type });
  expect(asked.json).not.toHaveProperty('data');
  expect(asked.json.errors).toHaveLength(1);
  expect(asked.json.errors[0].extensions.code).toBe(expected.code);
  expect(asked.json.errors[0].message).toMatch(expected.message);
}

describe("the gateway's refusals on /graphql", () => {
  it('401 is a GraphQL response with UNAUTHENTICATED, in the media type the client accepts, with WWW-Authenticate and the limit', async () => {
    const cases: [accept: string | undefined, type: string][] = [
      [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
      [`${GRAPHQL_RESPONSE}, application/json;q=0.9`, GRAPHQL_RESPONSE],
      ['application/json', 'application/json'],
      ['*/*', 'application/json'],
      [undefined, 'application/json'],
    ];
    for (const [accept, type] of cases) {
      for (const apiKey of [null, 'ick_nosuchkey0_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
        const refused = await graphql('{ categories { slug } }', { accept, apiKey });
        expect(refused.status).toBe(401);
        expect(refused.type).toBe(type);
        expect(refused.json).toEqual({ errors: [{ message: expect.stringMatching(/API key/), extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } }] });
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="icon-catalogue", charset="UTF-8"');
        expect(refused.headers.get('x-ratelimit-limit')).toBe('1000');
      }
    }
    // GET too, and the REST paths keep the specification's body whatever the client accepts.
    const viaGet = await ask(`/graphql?query=${encodeURIComponent('{ categories { slug } }')}`, { headers: { accept: GRAPHQL_RESPONSE } });
    expect([viaGet.status, viaGet.type, viaGet.json.errors[0].extensions.code]).toEqual([401, GRAPHQL_RESPONSE, 'UNAUTHENTICATED']);
    const rest = await ask('/icons', { headers: { accept: GRAPHQL_RESPONSE } });
    expect([rest.status, rest.type]).toEqual([401, 'application/json']);
    expect(rest.json).toEqual({ error: { code: 401, message: expect.stringMatching(/API key is required/) } });
  });

  it('429 is a GraphQL response with RATE_LIMITED and Retry-After on /graphql, the error body on REST paths', async () => {
    const limited = (await createApiKey(database.db.prisma, { accountName: 'graphql-limited', hourlyLimit: 2 })).key;
    for (let i = 0; i < 2; i++) expect((await graphql('{ categories { slug } }', { apiKey: limited })).status).toBe(200);
    const refused = await graphql('{ categories { slug } }', { apiKey: limited, accept: GRAPHQL_RESPONSE });
    expect([refused.status, refused.type]).toEqual([429, GRAPHQL_RESPONSE]);
    expect(refused.json).toEqual({
      errors: [{ message: expect.stringMatching(/^Rate limit exceeded: 2 requests per hour/), extensions: { code: 'RATE_LIMITED', http: { status: 429 } } }],
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    const rest = await ask('/categories', { headers: { 'x-api-key': limited, accept: GRAPHQL_RESPONSE } });
    expect([rest.status, rest.type, rest.json.error.code]).toEqual([429, 'application/json', 429]);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('405 on /graphql is a GraphQL response too, with Allow', async () => {
    const refused = await ask('/graphql', { method: 'PUT', headers: { 'x-api-key': key, accept: GRAPHQL_RESPONSE } });
    expectOneError(refused, { status: 405, type: GRAPHQL_RESPONSE, code: 'METHOD_NOT_ALLOWED', message: /PUT is not allowed/ });
    expect(refused.json.errors[0].extensions.http).toEqual({ status: 405 });
    expect(refused.headers.get('allow')).toBe('GET, POST');
  });
});

describe('documents that never run', () => {
  const deep = '{ __type(name: "Query") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }';
  const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: categories { slug }`).join(' ')} }`;
  const costly = `{ icons { data { ${'id '.repeat(1400)}} } }`;
  const limits: [name: string, query: string, message: RegExp][] = [
    ['depth', deep, /^Query depth limit of 8 exceeded, found \d+\.$/],
    ['aliases', aliases, /^Aliases limit of 15 exceeded, found 16\.$/],
    ['cost', costly, /^Query Cost limit of 3000 exceeded, found [\d.]+\.$/],
  ];

  it.each(limits)("GraphQL Armor's %s limit: 400 with application/graphql-response+json, a code, no data, no 'Syntax Error'", async (_name, query, message) => {
    expectOneError(await graphql(query, { accept: GRAPHQL_RESPONSE }), { status: 400, type: GRAPHQL_RESPONSE, code: 'GRAPHQL_VALIDATION_FAILED', message });
    // application/json: 200, as the specification asks for well-formed requests (README, GraphQL).
    expectOneError(await graphql(query, { accept: 'application/json' }), { status: 200, type: 'application/json', code: 'GRAPHQL_VALIDATION_FAILED', message });
  });

  it('parse and validation errors: 400 with a code, each validation error once and with its location', async () => {
    expectOneError(await graphql('{ categories {', { accept: GRAPHQL_RESPONSE }), { status: 400, type: GRAPHQL_RESPONSE, code: 'GRAPHQL_PARSE_FAILED', message: /^Syntax Error/ });
    const invalid = await graphql('{ categories { slug nope } }', { accept: GRAPHQL_RESPONSE });
    expectOneError(invalid, { status: 400, type: GRAPHQL_RESPONSE, code: 'GRAPHQL_VALIDATION_FAILED', message: /Cannot query field "nope" on type "Category"/ });
    expect(invalid.json.errors[0].locations).toEqual([{ line: 1, column: 21 }]);
    const twoProblems = await graphql('{ nope categories { also } }', { accept: GRAPHQL_RESPONSE });
    expect(twoProblems.json.errors.map((error: Json) => error.message)).toEqual(['Cannot query field "nope" on type "Query".', 'Cannot query field "also" on type "Category".']);
  });

  it('variables that do not fit: 400 (200 with application/json), BAD_USER_INPUT, no data', async () => {
    const query = 'query One($ref: ID!) { icon(ref: $ref) { slug } }';
    const message = /^Variable "\$ref" of non-null type "ID!" must not be null\.$/;
    expectOneError(await graphql(query, { accept: GRAPHQL_RESPONSE, variables: { ref: null } }), { status: 400, type: GRAPHQL_RESPONSE, code: 'BAD_USER_INPUT', message });
    expectOneError(await graphql(query, { accept: 'application/json', variables: { ref: null } }), { status: 200, type: 'application/json', code: 'BAD_USER_INPUT', message });
  });

  it('subscriptions and mutations, which the schema has none of, are validation errors (400), not 200 without data', async () => {
    for (const operation of ['subscription', 'mutation']) {
      expectOneError(await graphql(`${operation} { categories { slug } }`, { accept: GRAPHQL_RESPONSE }), {
        status: 400,
        type: GRAPHQL_RESPONSE,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: new RegExp(`^The ${operation} operation is not supported by the schema\\.$`),
      });
    }
  });
});

describe('executed operations', () => {
  it('one missing or forbidden icon among aliases nulls only its own field, with NOT_FOUND or FORBIDDEN on it; 200', async () => {
    const query = `{ free: icon(ref: "${freeSlug}") { slug } missing: icon(ref: "no-such-icon") { slug } owned: icon(ref: "${ownedSlug}") { slug svg } unowned: icon(ref: "${unownedSlug}") { slug } }`;
    for (const accept of [GRAPHQL_RESPONSE, 'application/json']) {
      const answered = await graphql(query, { accept, apiKey: ownerKey });
      expect(answered.status).toBe(200);
      expect(answered.json.data).toEqual({ free: { slug: freeSlug }, missing: null, owned: { slug: ownedSlug, svg: expect.stringMatching(/^<svg/) }, unowned: null });
      expect(answered.json.errors.map((error: Json) => [error.path, error.extensions.code])).toEqual([
        [['missing'], 'NOT_FOUND'],
        [['unowned'], 'FORBIDDEN'],
      ]);
    }
  });

  it('a broken argument is an error on its field, 200 with data null: the operation ran', async () => {
    const answered = await graphql('{ icons(perPage: 500) { meta { total } } }', { accept: GRAPHQL_RESPONSE });
    expect(answered.status).toBe(200);
    expect(answered.json.data).toBeNull();
    expect(answered.json.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'perPage' });
  });

  it('REST keeps 404 and 403 for one icon, and the owner still gets the markup', async () => {
    const missing = await ask('/icons/no-such-icon', { headers: { 'x-api-key': key } });
    expect([missing.status, missing.json]).toEqual([404, { error: { code: 404, message: 'No icon with id or slug "no-such-icon"' } }]);
    const forbidden = await ask(`/icons/${unownedSlug}`, { headers: { 'x-api-key': ownerKey } });
    expect([forbidden.status, forbidden.json.error.code]).toEqual([403, 403]);
    const owned = await ask(`/icons/${ownedSlug}`, { headers: { 'x-api-key': ownerKey } });
    expect(owned.status).toBe(200);
    expect(owned.json.data.svg).toMatch(/^<svg/);
  });
});

describe('GraphQL ETags', () => {
  it('are quoted entity-tags, and If-None-Match with one (weakly compared, in a list) gives 304 with the limit headers', async () => {
    const path = `/graphql?query=${encodeURIComponent('{ categories { slug name } }')}`;
    const headers = { 'x-api-key': key };
    const first = await ask(path, { headers });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-Za-z_-]+"$/);
    expect((await ask(path, { headers })).headers.get('etag')).toBe(etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"elsewhere", ${etag}`]) {
      const revalidated = await ask(path, { headers: { ...headers, 'if-none-match': ifNoneMatch } });
      expect([revalidated.status, revalidated.text, revalidated.headers.get('etag')]).toEqual([304, '', etag]);
      expect(revalidated.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(revalidated.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await ask(path, { headers: { ...headers, 'if-none-match': '"elsewhere"' } })).status).toBe(200);
  });
});

describe('the graphql-http audit (GraphQL over HTTP)', () => {
  it('passes every audit, MUST, SHOULD and MAY', async () => {
    const fetchFn = (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('x-api-key', key);
      return fetch(input, { ...init, headers });
    };
    const results = await auditServer({ url: `${gateway.url}/graphql`, fetchFn });
    expect(results.length).toBeGreaterThan(50);
    const failed = results.filter((result) => result.status !== 'ok').map((result) => `${result.id} ${result.name}: ${'reason' in result ? result.reason : ''}`);
    expect(failed).toEqual([]);
  });
});

describe('hostile requests (issue 45): 400 with a code, decided before anything recursive runs', () => {
  const expectRefused = (asked: Asked, code: string, message: RegExp) => {
    expect(asked.status).toBe(400);
    expect(asked.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
    expect(asked.json).toEqual({ errors: [{ message: expect.stringMatching(message), extensions: { code, http: { status: 400 } } }] });
  };

  it('variables that are not JSON, on GET and in a form body', async () => {
    const viaGet = await ask(`/graphql?query=${encodeURIComponent('{__typename}')}&variables=notjson`, { headers: { 'x-api-key': key, accept: GRAPHQL_RESPONSE } });
    expectRefused(viaGet, 'BAD_REQUEST', /^The "variables" parameter is not JSON/);
    const extensions = await ask(`/graphql?query=${encodeURIComponent('{__typename}')}&extensions=%7B`, { headers: { 'x-api-key': key } });
    expectRefused(extensions, 'BAD_REQUEST', /^The "extensions" parameter is not JSON/);
    const form = await ask('/graphql', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent('{__typename}')}&variables=notjson`,
    });
    expectRefused(form, 'BAD_REQUEST', /^The "variables" parameter is not JSON/);
  });

  it('a query 3,000 selection sets deep (and 12,000, under the body cap)', async () => {
    const nested = (depth: number) => `{${'a{'.repeat(depth)}b${'}'.repeat(depth + 1)}`;
    for (const depth of [3_000, 12_000]) {
      expectRefused(await graphql(nested(depth), { accept: GRAPHQL_RESPONSE }), 'BAD_REQUEST', /^The query is nested more than 64 levels deep/);
    }
    const viaGet = await ask(`/graphql?query=${encodeURIComponent(nested(1_000))}`, { headers: { 'x-api-key': key } });
    expectRefused(viaGet, 'BAD_REQUEST', /^The query is nested more than 64 levels deep/);
  });

  it('variables nested 40,000 arrays deep', async () => {
    const body = `{"query":"query($v: [ID]) { __typename }","variables":{"v":${'['.repeat(40_000)}${']'.repeat(40_000)}}}`;
    expect(body.length).toBeLessThan(100 * 1024);
    const refused = await ask('/graphql', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
    expectRefused(refused, 'BAD_REQUEST', /^The request's JSON is nested more than 64 levels deep/);
    const viaGet = await ask(`/graphql?query=${encodeURIComponent('{__typename}')}&variables=${encodeURIComponent(`{"v":${'['.repeat(1_000)}${']'.repeat(1_000)}}`)}`, {
      headers: { 'x-api-key': key },
    });
    expectRefused(viaGet, 'BAD_REQUEST', /^The "variables" parameter is nested more than 64 levels deep/);
  });

  it('more tokens than the parser takes: a parse error, as any other', async () => {
    const query = `{ ${'__typename '.repeat(6_000)}}`;
    expectOneError(await graphql(query, { accept: GRAPHQL_RESPONSE }), { status: 400, type: GRAPHQL_RESPONSE, code: 'GRAPHQL_PARSE_FAILED', message: /^Syntax Error: Document contains more th[ae][nt] 5000 tokens/ });
  });

  it('still serves what is nested within the bounds', async () => {
    const answered = await graphql('query($name: String!) { __type(name: $name) { name } }', { accept: GRAPHQL_RESPONSE, variables: { name: 'Query' } });
    expect([answered.status, answered.json]).toEqual([200, { data: { __type: { name: 'Query' } } }]);
    const viaGet = await ask(`/graphql?query=${encodeURIComponent(`{${'__type(name: "Query") { fields { type { name } } }'}}`)}&variables=${encodeURIComponent('{"a":[[[1]]]}')}`, {
      headers: { 'x-api-key': key },
    });
    expect(viaGet.status).toBe(200);
  });
});

describe('406 and 415 on /graphql (issue 45): a GraphQL error body with its Content-Type', () => {
  it('415 for a body in a media type GraphQL over HTTP does not take', async () => {
    const refused = await ask('/graphql', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/plain', accept: GRAPHQL_RESPONSE }, body: '{__typename}' });
    expect(refused.status).toBe(415);
    expect(refused.type).toBe(GRAPHQL_RESPONSE);
    expect(refused.json).toEqual({ errors: [{ message: expect.stringMatching(/Content-Type/), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', http: { status: 415 } } }] });
  });

  it('406 for an Accept the server cannot answer in', async () => {
    const refused = await ask('/graphql', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'text/csv' }, body: '{"query":"{__typename}"}' });
    expect(refused.status).toBe(406);
    expect(refused.type).toBe('application/json');
    expect(refused.json).toEqual({ errors: [{ message: expect.stringMatching(/Accept/), extensions: { code: 'NOT_ACCEPTABLE', http: { status: 406 } } }] });
  });
});
