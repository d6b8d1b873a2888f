// The OpenAPI 3.1 document of the REST routes, derived from the same route table that serves
// them: parameters from the declared rules (types, bounds, defaults, enums), response schemas
// from each operation's selection set typed by the schema (openapi-schemas.ts), the responses
// and headers each status carries, and what the other plugins describe of themselves (how keys
// are sent, the limits and their headers, their refusals), under the names they are
// configured with. Everything in it is in the REST API's terms.
import { STATUS_CODES } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { ApiDescription, DescribedHeader, DescribedResponse } from '../../pipeline/plugin.ts';
import { headerComponents, headersOf } from './openapi-headers.ts';
import { ResponseSchemas, type JsonSchema } from './openapi-schemas.ts';
import type { ParamRule, RestRoutesOptions } from './options.ts';
import { INT32_MAX } from './params.ts';
import type { CompiledRoute } from './route-table.ts';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Every error’s body.',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'integer', description: 'The HTTP status code.' },
        message: { type: 'string', description: 'What went wrong, in words a client can act on (a broken parameter rule names the parameter).' },
      },
    },
  },
};

/** The headers rest-routes sends with its own answers (200 and 304), under their fixed names. */
const ETAG: DescribedHeader = { name: 'ETag', description: 'Strong validator of the body; send it back in If-None-Match (compared weakly) for a 304.', schema: { type: 'string' } };
const CACHE_CONTROL: DescribedHeader = {
  name: 'Cache-Control',
  description: 'Always `private, no-cache`: the response depends on the caller’s key, so shared caches must not keep it.',
  schema: { type: 'string', const: 'private, no-cache' },
};
const X_CACHE: DescribedHeader = {
  name: 'X-Cache',
  description: 'HIT when the gateway answered from its response cache (a few seconds old at most), MISS when it computed the response, STALE when the database cannot answer and a kept response past its time stands in (up to `cacheStaleSeconds`).',
  schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
};
const LINK: DescribedHeader = {
  name: 'Link',
  description:
    'RFC 8288 links to the `first`, `prev`, `next` and `last` pages (prev and next where they exist; last is page 1 when nothing matches), as relative references: this request’s path and query with only `page` changed, for example `</icons?per_page=24&page=2>; rel="next"`.',
  schema: { type: 'string' },
};
const ALLOW: DescribedHeader = { name: 'Allow', description: 'The methods the path allows.', schema: { type: 'string', const: 'GET, HEAD' } };

const OVERVIEW = [
  '**Parameters.** Unknown query parameters are ignored. A parameter given twice is 400. An empty value (or one of spaces only) counts as absent: the default applies. Values are taken as this document states them: whole numbers as digits, enum values in lower case; anything else is 400 with a message naming the parameter and its rule.',
  '**Errors** have the body `{"error":{"code":<status>,"message":"..."}}`, `code` equal to the HTTP status.',
  '**Caching.** 200s carry a strong `ETag`; `If-None-Match` with it gives 304 with no body. Responses say `Cache-Control: private, no-cache` (they depend on the caller’s key) and, on routes the gateway caches, `X-Cache: HIT` or `MISS` (`STALE` while the database cannot answer and an older kept response stands in).',
  '**Methods.** Every path answers GET, and HEAD alike without a body; any other method gets 405 with `Allow`.',
];

/** The component name of a status's response: 404 -> NotFound. */
function responseName(status: number): string {
  return (STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
}

/**
 * What the server refuses in a text (params.ts), as patterns: control characters anywhere
 * (a value is trimmed first, so the document is stricter only about a tab or newline at either
 * end), and for a value that must be given, one of spaces only (blank counts as absent).
 */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';
const NOT_BLANK = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

function paramSchema(rule: ParamRule): JsonSchema {
  const withDefault = rule.default !== undefined ? { default: rule.default } : {};
  switch (rule.type) {
    case 'integer':
      return { type: 'integer', ...(rule.minimum !== undefined && { minimum: rule.minimum }), ...(rule.maximum !== undefined && { maximum: rule.maximum }), ...withDefault };
    case 'string': {
      // Blank counts as absent; a value given must have at least one character (or the rule's minimum).
      const minLength = Math.max(rule.minLength ?? 1, 1);
      return {
        type: 'string',
        ...((rule.required || minLength > 1) && { minLength }),
        ...(rule.maxLength !== undefined && { maxLength: rule.maxLength }),
        pattern: rule.required ? NOT_BLANK : NO_CONTROL_CHARACTERS,
        ...withDefault,
      };
    }
    case 'enum':
      return { type: 'string', enum: Object.keys(rule.values), ...withDefault };
    case 'flag':
      return { type: 'integer', enum: [0, 1], default: rule.default ?? 0 };
    case 'list': {
      const items =
        rule.items === 'integer'
          ? // The server takes whole numbers of GraphQL's Int range only (params.ts).
            { type: 'integer', minimum: -INT32_MAX - 1, maximum: INT32_MAX }
          : { type: 'string', minLength: 1, ...(rule.maxLength !== undefined && { maxLength: rule.maxLength }), pattern: NOT_BLANK };
      return { type: 'array', items, minItems: 1, maxItems: rule.maxItems };
    }
  }
}

function parametersOf(route: CompiledRoute): JsonSchema[] {
  return [
    ...route.template.names.map((name) => {
      const description = route.argumentsByVariable.get(name)?.[0]?.description;
      return { name, in: 'path', required: true, schema: { type: 'string', minLength: 1 }, ...(description && { description }) };
    }),
    ...Object.entries(route.params).map(([name, rule]) => ({
      name,
      in: 'query',
      required: rule.required,
      // Blank counts as absent (params.ts), so an optional parameter may be sent empty.
      ...(!rule.required && { allowEmptyValue: true }),
      ...(rule.description && { description: rule.description }),
      // Comma-separated values in one parameter (`ids=1,2,3`).
      ...(rule.type === 'list' && { style: 'form', explode: false }),
      schema: paramSchema(rule),
    })),
  ];
}

/** The tag of a route: configured, or its first path segment capitalised. */
function tagOf(route: CompiledRoute): string {
  if (route.config.tag) return route.config.tag;
  const segment = route.config.path.split('/')[1] ?? '';
  return segment.charAt(0).toUpperCase() + segment.slice(1);
}

/** The responses rest-routes gives itself on a route, with their headers. */
function ownResponses(route: CompiledRoute): DescribedResponse[] {
  const cached = route.config.cache.seconds > 0;
  const fresh = [ETAG, CACHE_CONTROL, ...(cached ? [X_CACHE] : []), ...(route.config.envelope === 'page' ? [LINK] : [])];
  return [
    { status: 200, description: 'OK', headers: fresh },
    { status: 304, description: 'Not modified: If-None-Match matched the ETag. No body.', headers: fresh },
    ...(Object.keys(route.params).length ? [{ status: 400, description: 'A parameter breaks its rule; the message names the parameter and the rule.' }] : []),
    // A page lists premium icons (without their markup) whoever asks; only a single resource refuses one.
    ...(route.template.names.length && route.config.envelope !== 'page' ? [{ status: 403, description: 'Premium content that the caller’s account does not own.' }] : []),
    ...(route.template.names.length ? [{ status: 404, description: 'Nothing matches the path.' }] : []),
    { status: 405, description: 'A method other than GET or HEAD.', headers: [ALLOW] },
  ];
}

type ResponseObjects = Record<string, JsonSchema & { headers?: Record<string, unknown> }>;

/**
 * The response objects of one operation: its own responses with every plugin's, each status's
 * headers, the 200's content as given; errors share one component per status.
 */
function responsesOf(own: readonly DescribedResponse[], okContent: JsonSchema, api: ApiDescription, errorResponses: ResponseObjects): ResponseObjects {
  const produced = [...own, ...(api.responses ?? [])];
  const statuses = [...new Set(produced.map((r) => r.status))].sort((a, b) => a - b);
  const responses: ResponseObjects = {};
  for (const status of statuses) {
    const producers = produced.filter((r) => r.status === status);
    const description = [...new Set(producers.map((r) => r.description))].join(' ');
    const headers = headersOf(status, producers, api.headers ?? []);
    if (status === 200) responses[status] = { description, headers, content: okContent };
    else if (status < 400) responses[status] = { description, headers };
    else {
      const response = { description, headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      // Errors look alike on every route: one component per status (inline if a route's differs).
      const name = responseName(status);
      errorResponses[name] ??= response;
      responses[status] = JSON.stringify(errorResponses[name]) === JSON.stringify(response) ? { $ref: `#/components/responses/${name}` } : response;
    }
  }
  return responses;
}

export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly CompiledRoute[], options: RestRoutesOptions['openapi'], api: ApiDescription): JsonSchema {
  const schemas = new ResponseSchemas(schema, ['Error']);
  const errorResponses: ResponseObjects = {};
  const operationResponses: ResponseObjects[] = [];
  const paths: Record<string, JsonSchema> = {};

  for (const route of routes) {
    const { config } = route;
    const root = schemas.rootField(route.document);
    const body = config.envelope === 'page' ? root : { type: 'object', properties: { data: root }, required: ['data'], additionalProperties: false };
    const responses = responsesOf(ownResponses(route), { 'application/json': { schema: body } }, api, errorResponses);
    operationResponses.push(responses);
    paths[config.path] = {
      get: {
        tags: [tagOf(route)],
        operationId: config.operation.charAt(0).toLowerCase() + config.operation.slice(1),
        ...(config.summary && { summary: config.summary }),
        ...(config.description && { description: config.description }),
        parameters: parametersOf(route),
        responses,
      },
    };
  }
  // Paths other plugins serve themselves (icons' files), with the same shared responses.
  for (const described of api.paths ?? []) {
    const responses = responsesOf(described.responses, described.content, api, errorResponses);
    operationResponses.push(responses);
    const { tag, operationId, summary, description, parameters, keyOptional } = described;
    const security = keyOptional ? { security: [...(api.security ?? []).filter((requirement) => Object.keys(requirement).length > 0), {}] } : {};
    paths[described.path] = { get: { tags: [tag], operationId, summary, description, ...security, parameters, responses } };
  }

  const headers = headerComponents([...operationResponses, errorResponses]);
  const tags = [...new Set([...routes.map(tagOf), ...(api.paths ?? []).map((path) => path.tag)])].map((name) => ({ name, ...(options.tags[name] && { description: options.tags[name] }) }));
  const description = [...(options.description ? [options.description] : []), ...(api.overview ?? []), ...OVERVIEW].join('\n\n');
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description,
      license: options.license,
      ...(options.contact && { contact: options.contact }),
    },
    servers: options.servers,
    tags,
    security: api.security ?? [],
    paths,
    components: {
      schemas: { ...schemas.components, Error: ERROR_SCHEMA },
      responses: errorResponses,
      headers,
      securitySchemes: api.securitySchemes ?? {},
    },
  };
}
