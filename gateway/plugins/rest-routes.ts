// The REST API as configuration: each route of .meshrc.yaml maps a GET path onto a named
// GraphQL operation of gateway/operations/, with declared parameter rules. The plugin routes
// (404 for unknown paths, 405 with Allow for other methods, HEAD like GET), turns parameters
// into variables (400 naming the broken rule), runs the operation compiled once against the
// served schema, wraps the result in the route's envelope with a strong ETag (304 on
// If-None-Match), and serves the OpenAPI document of the routes.
import { createHash } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Exchange } from '../pipeline/exchange.ts';
import { errorResponse, jsonResponse, pipeline } from '../pipeline/pipeline.ts';
import { usePipelineInYoga } from '../pipeline/yoga-bridge.ts';
import { buildOpenApiDocument } from '../rest/openapi.ts';
import { loadOperations } from '../rest/operations.ts';
import { ParamError } from '../rest/params.ts';
import { restRoutesOptions, type RestRoutesOptions } from '../rest/route-config.ts';
import { RouteTable, type RouteMatch } from '../rest/route-table.ts';
import type { Viewer } from '../../resolvers/context.ts';
import { cacheKey, ResponseCache } from '../rest/response-cache.ts';
import { sharedDatabase, urlTemplates } from '../runtime.ts';
import { graphQLErrorsResponse } from './error-shaping.ts';
import { processSingleton } from '../../lib/process-singleton.ts';
import { metrics } from '../observability/metrics.ts';
import { parsePluginOptions } from './plugin-options.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export const PLUGIN_NAME = '@icon-catalogue/gateway/rest-routes';
export const GRAPHQL_PATH = '/graphql';

export function strongETag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

function matchesETag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => candidate.trim() === etag);
}

export class RestRoutes {
  readonly table: RouteTable;
  readonly cache: ResponseCache;
  private openapi?: { body: string; etag: string };
  private boundTo?: GraphQLSchema;

  constructor(readonly options: RestRoutesOptions) {
    const dir = isAbsolute(options.operations) ? options.operations : resolve(PROJECT_ROOT, options.operations);
    this.table = new RouteTable(options, loadOperations(dir));
    this.cache = new ResponseCache({ maxBytes: options.cacheMaxBytes });
  }

  /** Validates and compiles every route against the schema being served; builds the OpenAPI document. */
  bind(schema: GraphQLSchema): void {
    // The front binds Mesh's schema at start, and Yoga reports the same schema again later.
    if (schema === this.boundTo) return;
    this.boundTo = schema;
    this.table.bind(schema);
    const body = JSON.stringify(buildOpenApiDocument(schema, this.table.routes, this.options.openapi));
    this.openapi = { body, etag: strongETag(body) };
  }

  route = (exchange: Exchange) => {
    const { method, path } = exchange;
    if (path === GRAPHQL_PATH) {
      if (method !== 'GET' && method !== 'POST') return errorResponse(405, `${method} is not allowed on ${path}`, { allow: 'GET, POST' });
      exchange.destination = { kind: 'graphql' };
      return undefined;
    }
    const match = path === this.options.openapi.path ? undefined : this.table.match(path);
    if (path !== this.options.openapi.path && !match) return errorResponse(404, `No route for ${path}`);
    if (method !== 'GET' && method !== 'HEAD') return errorResponse(405, `${method} is not allowed on ${path}`, { allow: 'GET, HEAD' });
    exchange.destination = match ? { kind: 'rest', match } : { kind: 'openapi' };
    return undefined;
  };

  /** Synchronous for the OpenAPI document and cache hits; a promise when the operation runs. */
  handle = (exchange: Exchange) => {
    const destination = exchange.destination;
    if (destination?.kind === 'openapi') return this.openapi ? this.respond(exchange, this.openapi.body, this.openapi.etag) : this.respond(exchange, '{}', strongETag('{}'));
    if (destination?.kind !== 'rest') return undefined;
    const { match } = destination;
    let variables;
    try {
      variables = RouteTable.variables(match, exchange.query);
    } catch (error) {
      if (error instanceof ParamError) return errorResponse(400, error.message);
      throw error;
    }
    const viewer = exchange.caller?.viewer ?? null;
    const { seconds, scope } = match.route.config.cache;
    if (seconds <= 0) return this.execute(exchange, match, variables, viewer);
    const key = cacheKey(match.route.config.path, variables, scope === 'shared' ? 'shared' : `account:${viewer?.accountId ?? '-'}`);
    const cached = this.cache.get(key);
    metrics.responseCacheLookup(match.route.config.path, cached !== undefined);
    if (cached) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return this.respond(exchange, cached.body, cached.etag);
    }
    return this.execute(exchange, match, variables, viewer, { key, seconds });
  };

  private async execute(exchange: Exchange, match: RouteMatch, variables: Record<string, unknown>, viewer: Viewer | null, cacheAs?: { key: string; seconds: number }) {
    const { prisma } = await sharedDatabase();
    const result = await RouteTable.execute(match, variables, { prisma, viewer, urls: urlTemplates() });
    if (result.errors?.length) return graphQLErrorsResponse(result.errors as GraphQLError[], exchange);
    const body = JSON.stringify(RouteTable.body(match.route, result.data as Record<string, unknown>));
    const etag = strongETag(body);
    if (cacheAs) {
      this.cache.set(cacheAs.key, { body: Buffer.from(body), etag }, cacheAs.seconds);
      exchange.responseHeaders['x-cache'] = 'MISS';
    }
    return this.respond(exchange, body, etag);
  }

  private respond(exchange: Exchange, body: string | Buffer, etag: string) {
    // Responses depend on the caller's key (premium markup), so shared caches must not keep them.
    const headers = { etag, 'cache-control': 'private, no-cache' };
    if (matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
    return jsonResponse(200, body, headers);
  }
}

const shared = processSingleton('rest-routes', () => ({ routes: undefined as RestRoutes | undefined }));

/** The routes of this process (after Mesh built the plugin). */
export function currentRestRoutes(): RestRoutes | undefined {
  return shared.routes;
}

export default function useRestRoutes(rawOptions: Record<string, unknown> = {}): Plugin {
  const options = parsePluginOptions(restRoutesOptions, PLUGIN_NAME, rawOptions);
  const routes = new RestRoutes(options);
  shared.routes = routes;
  pipeline.register('route', 'rest-routes', routes.route);
  pipeline.register('handle', 'rest-routes', routes.handle);
  return {
    ...usePipelineInYoga(),
    onSchemaChange({ schema }) {
      routes.bind(schema);
    },
  };
}
