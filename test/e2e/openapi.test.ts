// The OpenAPI document against the API it describes (issue 11, item 13), over a real socket, on
// a copy of the demo catalogue: Redocly's recommended ruleset finds nothing in it; it says what
// the README promises (servers, license, contact, named schemas, every header on every status
// that carries it, under the configured names, no GraphQL wording); and every response of every
// route, each documented status made to happen (500 on a broken database, 503 with the rate
// limit's store away and failOpen: false), has a documented status, the headers the document
// requires and only headers it documents for that status, and a body of the documented shape.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { lintOpenApiDocument } from '../../scripts/lint-openapi.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as JSON; each check reads the part it needs
type Json = any;

const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' }; // memory store

let database: TestDatabase;
let gateway: RunningGateway;
let documentText: string;
let document: Json;
let key: string;
let ownerKey: string;
let limitedKey: string;
let ownedSlug: string;
let unownedSlug: string;
let freeSlug: string;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'openapi-reader', hourlyLimit: 100_000 })).key;
  ownerKey = (await createApiKey(prisma, { accountName: 'openapi-owner', hourlyLimit: 100_000 })).key;
  limitedKey = (await createApiKey(prisma, { accountName: 'openapi-limited', hourlyLimit: 1 })).key;
  const premium = await prisma.icon.findMany({ where: { premium: true, published: true }, orderBy: { id: 'asc' }, take: 2 });
  ownedSlug = premium[0]!.slug;
  unownedSlug = premium[1]!.slug;
  await grantIcons(prisma, 'openapi-owner', [ownedSlug]);
  freeSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: false, published: true }, orderBy: { id: 'asc' } })).slug;
  gateway = await startGatewayInProcess(database.db, { env });
  documentText = await (await fetch(`${gateway.url}/openapi.json`)).text();
  document = JSON.parse(documentText);
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

interface Answer {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

async function ask(base: string, path: string, headers: Record<string, string> = { 'x-api-key': key }, method = 'GET'): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers });
  return { method, path, status: response.status, headers: response.headers, text: await response.text() };
}

/** The object a `{ $ref: '#/...' }` points at, or the object itself. */
function resolve(doc: Json, node: Json): Json {
  if (!node?.$ref) return node;
  return resolve(
    doc,
    (node.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: Json, part: string) => at?.[part], doc),
  );
}

/** Checks answers against one document; `seen` records each path template and status met. */
class Conformance {
  readonly seen = new Set<string>();
  /** Per `template status` met, the header names (lower case) any answer of it carried. */
  private readonly sent = new Map<string, Set<string>>();
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly documentedHeaders: Set<string>;

  constructor(private readonly doc: Json) {
    this.documentedHeaders = new Set(
      this.responses().flatMap((response) => Object.keys(resolve(doc, response).headers ?? {}).map((name) => name.toLowerCase())),
    );
  }

  /** Every response object of every operation. */
  responses(): Json[] {
    return Object.values(this.doc.paths).flatMap((item: Json) => Object.values(item.get.responses));
  }

  /** Every path template with each status it documents, as `template status`. */
  documentedPairs(): string[] {
    return Object.entries(this.doc.paths).flatMap(([template, item]: [string, Json]) => Object.keys(item.get.responses).map((status) => `${template} ${status}`));
  }

  /**
   * The headers the document declares on a status of a path that no answer of it carried
   * (issue 45, item 5: rate-limit headers declared on 401 and 405, which never carry them).
   */
  declaredButNeverSent(): string[] {
    return [...this.sent].flatMap(([pair, sent]) => {
      const [template, status] = pair.split(' ') as [string, string];
      const documented = resolve(this.doc, this.doc.paths[template].get.responses[status]);
      return Object.keys(documented?.headers ?? {})
        .filter((name) => !sent.has(name.toLowerCase()))
        .map((name) => `${pair}: ${name} declared, never sent`);
    });
  }

  /** A JSON Schema validator for a schema of the document (its $refs into components.schemas made local). */
  validator(schema: Json): ValidateFunction {
    const text = JSON.stringify(schema);
    let validate = this.validators.get(text);
    if (!validate) {
      const local = (value: Json) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
      validate = this.ajv.compile({ ...local(schema), $defs: local(this.doc.components.schemas) });
      this.validators.set(text, validate);
    }
    return validate;
  }

  private template(path: string): string | undefined {
    const bare = path.split('?')[0]!;
    return Object.keys(this.doc.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`).test(bare));
  }

  /** What is wrong with an answer, as the document sees it ([] when nothing). */
  problems(answer: Answer): string[] {
    const at = `${answer.method} ${answer.path} -> ${answer.status}`;
    const template = this.template(answer.path);
    if (!template) return [`${at}: no documented path`];
    this.seen.add(`${template} ${answer.status}`);
    const sent = this.sent.get(`${template} ${answer.status}`) ?? new Set<string>();
    answer.headers.forEach((_, name) => void sent.add(name));
    this.sent.set(`${template} ${answer.status}`, sent);
    const documented = resolve(this.doc, this.doc.paths[template].get.responses[String(answer.status)]);
    if (!documented) return [`${at}: status not documented`];
    const problems: string[] = [];
    const headers = Object.entries(documented.headers ?? {}).map(([name, header]) => [name, resolve(this.doc, header)] as [string, Json]);
    for (const [name, header] of headers) {
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${at}: required header ${name} missing`);
        continue;
      }
      const type = header.schema.type;
      const typed = type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
      if (!this.validator(header.schema)(typed)) problems.push(`${at}: header ${name}: ${JSON.stringify(value)} does not fit ${JSON.stringify(header.schema)}`);
    }
    const named = new Set(headers.map(([name]) => name.toLowerCase()));
    answer.headers.forEach((_, name) => {
      if (this.documentedHeaders.has(name) && !named.has(name)) problems.push(`${at}: header ${name} sent but not documented for this status`);
    });
    const schema = documented.content?.['application/json']?.schema;
    const type = answer.headers.get('content-type') ?? '';
    const otherMedia = answer.status === 200 && !/^application\/json/.test(type) ? documented.content?.[type] : undefined;
    if (otherMedia) {
      if (answer.method !== 'HEAD' && answer.text === '') problems.push(`${at}: no body where the document says ${type}`);
    } else if (!schema) {
      if (answer.text !== '') problems.push(`${at}: a body where the document says none`);
    } else if (!/^application\/json/.test(answer.headers.get('content-type') ?? '')) {
      problems.push(`${at}: content-type ${answer.headers.get('content-type')}`);
    } else {
      const validate = this.validator(schema);
      if (!validate(JSON.parse(answer.text))) problems.push(`${at}: body does not fit: ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }
}

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended ruleset with no problem, warnings included', async () => {
    expect(await lintOpenApiDocument(documentText)).toEqual([]);
  });

  it('compiles every schema it holds as JSON Schema 2020-12', () => {
    const check = new Conformance(document);
    for (const response of check.responses()) {
      const resolved = resolve(document, response);
      for (const header of Object.values(resolved.headers ?? {})) expect(() => check.validator(resolve(document, header).schema)).not.toThrow();
      for (const media of Object.values(resolved.content ?? {}) as Json[]) expect(() => check.validator(media.schema)).not.toThrow();
    }
  });

  it('says where, whose and under which license the API is, and describes and tags every operation', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info).toMatchObject({ license: { name: 'MIT', identifier: 'MIT' }, contact: { name: expect.any(String), url: expect.stringMatching(/^https:/) } });
    expect(document.info.description).toMatch(/X-API-Key/);
    expect(document.info.description).toMatch(/empty value .* counts as absent/);
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(['Icons', 'Categories', 'Sets', 'Usage', 'Files']);
    for (const tag of document.tags) expect(tag.description).toBeTruthy();
    const operations = Object.values(document.paths).map((item: Json) => item.get);
    expect(operations.map((operation: Json) => operation.operationId)).toEqual(['listIcons', 'getIcon', 'similarIcons', 'listCategories', 'searchIcons', 'suggestWords', 'listSets', 'getUsage', 'getIconSvg', 'getIconPng', 'getIconPreview']);
    for (const operation of operations) {
      expect(operation.summary).toBeTruthy();
      expect(operation.description).toBeTruthy();
      expect(operation.tags).toHaveLength(1);
    }
    expect(document.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
    expect(document.components.securitySchemes).toMatchObject({ ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, BearerAuth: { type: 'http', scheme: 'bearer' } });
  });

  it('names its schemas (Icon, IconDetail, IconPage, IconListPage, PageMeta, Category, Tag, IconSet, Usage, Error) and refers to them', () => {
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Category', 'Error', 'Icon', 'IconDetail', 'IconListMeta', 'IconListPage', 'IconPage', 'IconSet', 'PageMeta', 'Suggestion', 'Tag', 'Usage']);
    const ok = (path: string) => document.paths[path].get.responses['200'].content['application/json'].schema;
    expect(ok('/icons')).toEqual({ $ref: '#/components/schemas/IconListPage' });
    expect(ok('/sets').properties.data.items).toEqual({ $ref: '#/components/schemas/IconSet' });
    expect(ok('/usage').properties.data).toEqual({ $ref: '#/components/schemas/Usage' });
    expect(document.components.schemas.IconSet.properties.samples.items).toEqual({ $ref: '#/components/schemas/Icon' });
    expect(ok('/search')).toEqual({ $ref: '#/components/schemas/IconPage' });
    expect(ok('/icons/{ref}').properties.data).toEqual({ $ref: '#/components/schemas/IconDetail' });
    expect(ok('/categories').properties.data.items).toEqual({ $ref: '#/components/schemas/Category' });
    expect(document.components.schemas.IconPage.properties).toMatchObject({ data: { items: { $ref: '#/components/schemas/Icon' } }, meta: { $ref: '#/components/schemas/PageMeta' } });
    for (const response of new Conformance(document).responses()) {
      const resolved = resolve(document, response);
      if (resolved.content && !resolved.description.startsWith('OK')) expect(resolved.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
  });

  it('declares every header the README promises, on every status that carries it', () => {
    const headersOf = (path: string, status: string) => {
      const response = resolve(document, document.paths[path].get.responses[status]);
      return Object.fromEntries(Object.entries(response.headers).map(([name, header]) => [name, resolve(document, header).required]));
    };
    for (const path of Object.keys(document.paths)) {
      for (const status of Object.keys(document.paths[path].get.responses)) {
        expect(headersOf(path, status), `${path} ${status}`).toMatchObject({ 'X-RateLimit-Limit': true, 'X-Request-Id': true });
      }
      for (const status of ['200', '304']) {
        const cached = path !== '/usage'; // never kept: it changes with every request
        expect(headersOf(path, status), `${path} ${status}`).toMatchObject({ ETag: true, 'Cache-Control': true, 'X-RateLimit-Remaining': false, 'X-RateLimit-Reset': false, ...(cached && { 'X-Cache': true }) });
        if (!cached) expect(headersOf(path, status)['X-Cache']).toBeUndefined();
        // RFC 8288 pagination links on the routes that answer pages, only there.
        expect(headersOf(path, status).Link, `${path} ${status}`).toBe(['/icons', '/search', '/icons/{ref}/similar'].includes(path) ? true : undefined);
      }
      expect(headersOf(path, '401')).toMatchObject({ 'WWW-Authenticate': true });
      expect(headersOf(path, '405')).toMatchObject({ Allow: true });
      expect(headersOf(path, '429')).toMatchObject({ 'Retry-After': true, 'X-RateLimit-Remaining': true, 'X-RateLimit-Reset': true });
      expect(headersOf(path, '503')).toMatchObject({ 'Retry-After': true });
    }
  });

  it('gives page its real maximum, which the 400 message names too', async () => {
    const page = document.paths['/icons'].get.parameters.find((p: Json) => p.name === 'page');
    expect(page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
    const { minimum, maximum } = page.schema;
    expect((await ask(gateway.url, `/icons?page=${maximum}&per_page=100`)).status).toBe(200);
    const beyond = await ask(gateway.url, `/icons?page=${maximum + 1}`);
    expect(beyond.status).toBe(400);
    expect(JSON.parse(beyond.text).error.message).toBe(`page must be a whole number from ${minimum} to ${maximum} (got "${maximum + 1}")`);
  });

  it('documents that an empty value counts as absent, and the API does so for every optional parameter', async () => {
    for (const path of ['/icons', '/search']) {
      const base = path === '/search' ? '/search?q=home&' : '/icons?';
      const absent = await ask(gateway.url, base.slice(0, -1));
      expect(absent.status).toBe(200);
      for (const parameter of document.paths[path].get.parameters) {
        if (parameter.required) {
          expect(parameter.allowEmptyValue).toBeUndefined();
          expect(parameter.schema.minLength).toBe(1);
          expect((await ask(gateway.url, `${base}${parameter.name}=`)).status).toBe(400);
          continue;
        }
        expect(parameter.allowEmptyValue, parameter.name).toBe(true);
        expect(parameter.schema.minLength, parameter.name).toBeUndefined();
        for (const blank of ['', '%20']) {
          const empty = await ask(gateway.url, `${base}${parameter.name}=${blank}`);
          expect([empty.status, empty.text], `${path} ${parameter.name}=${blank}`).toEqual([200, absent.text]);
        }
      }
    }
  });

  it('refuses enum values in another case, as their schema lists them in lower case', async () => {
    for (const [path, parameter, value] of [
      ['/icons', 'sort', 'AZ'],
      ['/icons', 'license', 'Free'],
      ['/search?q=home', 'sort', 'Newest'],
    ]) {
      const schema = document.paths[path!.split('?')[0]!].get.parameters.find((p: Json) => p.name === parameter).schema;
      expect(schema.enum).toContain(value!.toLowerCase());
      const refused = await ask(gateway.url, `${path}${path!.includes('?') ? '&' : '?'}${parameter}=${value}`);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).error.message).toBe(`${parameter} must be one of: ${schema.enum.join(', ')} (got "${value}")`);
    }
  });

  it('speaks of the REST API only: no GraphQL names, codes or wording', () => {
    expect(documentText.match(/graphql|resolver|fragment|mutation|subscription/gi)).toBeNull();
    // The schema's own names of fields and arguments the routes rename, and its error codes.
    expect(documentText.match(/perPage|totalPages|iconCount|svgUrl|licenseUrl|includeSvg|includeOwnedPremium|BAD_USER_INPUT|NOT_FOUND|FORBIDDEN|UNAUTHENTICATED|RATE_LIMITED/g)).toBeNull();
  });
});

describe('every response of every route, as the document says', () => {
  it('has a documented status, the required headers, only documented headers and a body of the documented shape', async () => {
    const check = new Conformance(document);
    const answers: Answer[] = [];
    const keyed = (path: string, headers: Record<string, string> = {}) => ask(gateway.url, path, { 'x-api-key': key, ...headers });
    const routes = ['/icons?per_page=5', `/icons/${freeSlug}`, `/icons/${freeSlug}/similar?per_page=5`, '/categories', '/search?q=home&per_page=5', '/suggest?q=ho', '/sets', '/usage'];
    for (const path of routes) {
      const fresh = await keyed(path);
      answers.push(fresh, await keyed(path)); // MISS, then HIT
      answers.push(await keyed(path, { 'if-none-match': fresh.headers.get('etag')! }));
      answers.push(await ask(gateway.url, path, {}));
      answers.push(await ask(gateway.url, path, { 'x-api-key': 'not-a-key' }));
      answers.push(await ask(gateway.url, path, { 'x-api-key': key }, 'POST'));
      answers.push(await keyed(`${path}${path.includes('?') ? '&' : '?'}pad=${'a'.repeat(17 * 1024)}`)); // 431
    }
    answers.push(await ask(gateway.url, '/categories', { 'x-api-key': limitedKey })); // the one request of the hour
    for (const path of routes) answers.push(await ask(gateway.url, path, { 'x-api-key': limitedKey }));
    answers.push(
      await keyed('/icons?include_svg=1&per_page=20&license=free'),
      await keyed('/icons?include_svg=1&per_page=20&license=premium'),
      await keyed('/icons?page=999999&per_page=100'),
      await keyed('/icons?category=no-such-category'),
      await keyed('/icons?per_page=0'),
      await keyed('/icons?sort=AZ'),
      await keyed('/search'),
      await keyed('/search?q=home&page=abc'),
      await keyed(`/icons/${unownedSlug}`),
      await ask(gateway.url, `/icons/${ownedSlug}`, { 'x-api-key': ownerKey }),
      await keyed('/icons/no-such-icon'),
      await keyed('/icons/no-such-icon/similar'),
      await keyed(`/icons/${freeSlug}/similar?per_page=0`),
      await keyed('/icons/%FF'),
      await keyed('/icons?ids=1,2,999999'),
      await keyed(`/icons?slugs=${freeSlug},${unownedSlug},nope&include_svg=1`),
      await keyed('/icons?ids=1&slugs=a'),
      await keyed('/icons?set=mdi,tabler&per_page=3'),
      await keyed('/search?q=home&set=,'),
      await keyed('/suggest?q=ho&limit=0'),
      await ask(gateway.url, '/usage', { 'x-api-key': ownerKey }),
    );
    // Icons' files: free ones without a key too, premium ones for owners only.
    const freeFile = await database.db.prisma.icon.findFirstOrThrow({ where: { slug: freeSlug }, include: { set: true } });
    const ownedFile = await database.db.prisma.icon.findFirstOrThrow({ where: { slug: ownedSlug }, include: { set: true } });
    for (const [route, format, query] of [
      ['svg', 'svg', '?color=red&size=32'],
      ['png', 'png', '?size=32'],
      ['preview', 'png', '?size=32'], // public for premium icons too
    ] as const) {
      const file = `/${route}/${freeFile.set.prefix}/${freeFile.sourceName}.${format}`;
      const fresh = await ask(gateway.url, `${file}${query}`, {});
      answers.push(fresh, await keyed(`${file}${query}`), await ask(gateway.url, file, {}, 'HEAD'));
      answers.push(await ask(gateway.url, `${file}${query}`, { 'if-none-match': fresh.headers.get('etag')! }));
      answers.push(await ask(gateway.url, `${file}?size=100000`, {}), await ask(gateway.url, `/${route}/${freeFile.set.prefix}/no-such-icon.${format}`, {}));
      answers.push(await ask(gateway.url, `/${route}/${ownedFile.set.prefix}/${ownedFile.sourceName}.${format}`, {}));
      answers.push(await ask(gateway.url, `/${route}/${ownedFile.set.prefix}/${ownedFile.sourceName}.${format}`, { 'x-api-key': ownerKey }));
      answers.push(await ask(gateway.url, file, { 'x-api-key': 'not-a-key' }), await ask(gateway.url, file, {}, 'POST'));
      answers.push(await ask(gateway.url, file, { 'x-api-key': limitedKey }), await keyed(`${file}?pad=${'a'.repeat(17 * 1024)}`));
    }
    expect(answers.flatMap((answer) => check.problems(answer))).toEqual([]);
    expect(answers.filter((answer) => answer.headers.get('x-cache') === 'HIT').length).toBeGreaterThanOrEqual(4);
    expect(check.declaredButNeverSent()).toEqual([]);
    // 500 and 503 are made to happen below; 408 takes the server's timeouts (slow-and-malformed-clients.test.ts).
    // /usage's body changes with every request it counts, so its ETag never matches again (304
    // only happens while the rate limit cannot count, the figures null).
    const unmet = check.documentedPairs().filter((pair) => !check.seen.has(pair) && !/ (408|500|503)$/.test(pair) && pair !== '/usage 304');
    expect(unmet).toEqual([]);
  });

  it('500 when the database breaks: documented, with the documented headers and body', async () => {
    const broken = await createCatalogueCopy('pglite');
    const brokenKey = (await createApiKey(broken.db.prisma, { accountName: 'openapi-broken' })).key;
    const slug = (await broken.db.prisma.icon.findFirstOrThrow({ where: { premium: false, published: true } })).slug;
    await broken.db.prisma.$executeRawUnsafe('ALTER TABLE categories RENAME TO categories_gone');
    const served = await startGatewayInProcess(broken.db, { env });
    try {
      const check = new Conformance(await (await fetch(`${served.url}/openapi.json`)).json());
      const answers = await Promise.all(['/icons', `/icons/${slug}`, '/categories', '/search?q=home'].map((path) => ask(served.url, path, { 'x-api-key': brokenKey })));
      expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500, 500]);
      expect(answers.flatMap((answer) => check.problems(answer))).toEqual([]);
    } finally {
      await served.close();
      await broken.drop();
    }
  });

  it('503 when the rate limit cannot count (failOpen: false): documented, under the configured header names', async () => {
    const renamed = (config: string) =>
      config
        .replace('store: auto', 'store: redis')
        .replace('failOpen: true', 'failOpen: false')
        .replace('limit: X-RateLimit-Limit', 'limit: X-Quota-Limit')
        .replace('remaining: X-RateLimit-Remaining', 'remaining: X-Quota-Remaining')
        .replace('reset: X-RateLimit-Reset', 'reset: X-Quota-Reset');
    // Nothing listens on port 1: every count fails.
    const served = await withConfig(renamed, (dir) => startGatewayInProcess(database.db, { dir, env: { ...env, REDIS_URL: 'redis://127.0.0.1:1' } }));
    try {
      const text = await (await fetch(`${served.url}/openapi.json`)).text();
      expect(text).toContain('X-Quota-Limit');
      expect(text).not.toMatch(/X-RateLimit/);
      const check = new Conformance(JSON.parse(text));
      const answers = [];
      for (const path of ['/icons', `/icons/${freeSlug}`, '/categories', '/search?q=home']) answers.push(await ask(served.url, path));
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
      expect(answers.map((answer) => answer.headers.get('x-quota-limit'))).toEqual(['100000', '100000', '100000', '100000']);
      expect(answers.flatMap((answer) => check.problems(answer))).toEqual([]);
    } finally {
      await served.close();
    }
  });
});

/**
 * Each query parameter's declared schema against what the server takes (issue 45, item 5: the
 * document allowed control characters and a blank `q`, which the server refused). Probe values,
 * the same for every parameter, are read as the document says (integers as digits, lists split
 * on commas; a blank optional value counts as absent, as its introduction says); a value the
 * schema allows must not be refused with 400, and one it does not allow must be.
 */
describe('every parameter, as the document declares it', () => {
  const ajv = new Ajv2020({ strict: false });

  /** The value of `raw` in the type its schema declares (a string when it is not one). */
  function typed(schema: Json, raw: string): unknown {
    if (schema.type === 'integer') return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    if (schema.type === 'array') return raw.split(',').map((item) => typed(schema.items, item.trim()));
    return raw;
  }

  function allows(parameter: Json, raw: string): boolean {
    if (!parameter.required && raw.trim() === '') return true;
    return ajv.validate(parameter.schema, typed(parameter.schema, raw));
  }

  function probes(schema: Json): string[] {
    const values = ['', ' ', '\t', 'a', 'home', 'Arrow left', '0', '1', '-1', '2', '24', '100', '101', '1.5', '1e3', '2147483648', 'é', '😀'];
    values.push('\u0001', 'a\u0001b', 'a\u007fb', 'a\tb', 'a\nb', '\u0000', '1,2', 'a,b', 'a,,b', ' ,a', 'home,\u0002');
    const length = schema.maxLength ?? schema.items?.maxLength ?? 200;
    values.push('x'.repeat(length), 'x'.repeat(length + 1));
    for (const value of schema.enum ?? []) values.push(String(value), String(value).toUpperCase());
    return values;
  }

  it('refuses (400) exactly the values the schema does not allow', async () => {
    const icon = await database.db.prisma.icon.findFirstOrThrow({ where: { slug: freeSlug }, include: { set: true } });
    const pathParams: Record<string, string> = { ref: freeSlug, prefix: icon.set.prefix, name: icon.sourceName };
    const mismatches: string[] = [];
    let asked = 0;
    for (const [template, item] of Object.entries(document.paths) as [string, Json][]) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name]!);
      const parameters = item.get.parameters.filter((parameter: Json) => parameter.in === 'query');
      // The required ones with a value the schema allows, so that each probe tests one parameter.
      const required = parameters.filter((parameter: Json) => parameter.required).map((parameter: Json) => `${parameter.name}=home`);
      for (const parameter of parameters) {
        // An opaque cursor: only the server can tell a real one (its description says so).
        const opaque = parameter.name === 'after';
        for (const raw of probes(parameter.schema)) {
          const query = [...required.filter((pair: string) => !pair.startsWith(`${parameter.name}=`)), `${parameter.name}=${encodeURIComponent(raw)}`].join('&');
          const response = await fetch(`${gateway.url}${path}?${query}`, { headers: { 'x-api-key': key } });
          await response.arrayBuffer();
          asked++;
          const allowed = allows(parameter, raw);
          if (allowed && response.status === 400 && !opaque) mismatches.push(`${template} ${parameter.name}=${JSON.stringify(raw)}: allowed by the document, refused`);
          if (!allowed && response.status !== 400) mismatches.push(`${template} ${parameter.name}=${JSON.stringify(raw)}: refused by the document, answered ${response.status}`);
        }
      }
    }
    expect(asked).toBeGreaterThan(500);
    expect(mismatches).toEqual([]);
  });
});
