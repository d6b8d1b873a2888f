// The REST API as configuration: each route of .meshrc.yaml maps a GET path onto a named
// GraphQL operation of gateway/operations/, with declared parameter rules. The plugin routes
// (404 for unknown paths, 405 with Allow for other methods, HEAD like GET), turns parameters
// into variables (400 naming the broken rule), runs the operation through the served schema's
// envelope (the same context and envelop plugins as /graphql, as Yoga's SOFA plugin does; the
// documents run compiled, compiled-operations.ts), wraps the result in the route's envelope
// with a strong ETag (304 on If-None-Match) and, for paged routes, RFC 8288 Link headers
// (link-header.ts), keeps finished responses for the route's cache.seconds (concurrent misses
// of one response share its execution; kept responses serve up to cacheStaleSeconds longer
// while the database cannot answer), and serves the OpenAPI document.
import { isAbsolute, resolve } from 'node:path';
import { print, type ExecutionResult, type GraphQLError } from 'graphql';
import { formatPath } from '../../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import { unavailability } from '../../../resolvers/errors.ts';
import type { Viewer } from '../../../resolvers/context.ts';
import type { Database } from '../../../prisma/database.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { operationEnvelope, type OperationEnvelope } from '../../pipeline/operation-envelope.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { keptCompiledQueries, useCompiledOperations } from './compiled-operations.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { sharedOperations } from './operations.ts';
import { restRoutesOptions } from './options.ts';
import { ParamError } from './params.ts';
import { encodedJson, encodeRouteData, routeResponse } from './respond.ts';
import { cacheKey, ResponseCache, routeKey, type CachedResponse } from './response-cache.ts';
import { RouteTable, type RouteMatch } from './route-table.ts';
import { matchedRoute, routeRequest, routeVariables } from './routing.ts';
import { SharedRuns } from './shared-runs.ts';

export const useRestRoutes: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(restRoutesOptions, rawOptions, where);
  const operationsDir = isAbsolute(options.operations) ? options.operations : resolve(PROJECT_ROOT, options.operations);
  const table = new RouteTable(options, sharedOperations(operationsDir, services.keep), formatPath(where));
  // Kept across a config reload with the same cacheMaxBytes; each route's responses are keyed by
  // its version (routeKey), so a route the reload changed starts empty and the rest keep theirs.
  const cache = services.keep('rest-routes:responses', { maxBytes: options.cacheMaxBytes }, () => new ResponseCache({ maxBytes: options.cacheMaxBytes }));
  const routeKeys = new Map(table.routes.map((route) => [route, routeKey(route.config.path, { config: route.config, document: print(route.document) })]));
  const releaseRoutes = cache.holdRoutes([...routeKeys.values()]);
  let enveloped: OperationEnvelope | undefined;
  let openapi: CachedResponse = encodedJson({});
  /** Known once an operation ran: asked whether it would refuse a query right now. */
  let database: Database | undefined;
  const sharedRuns = new SharedRuns<ExecutionResult>();

  async function run(exchange: Exchange, match: RouteMatch, variables: Record<string, unknown>): Promise<ExecutionResult> {
    if (!enveloped) throw new Error(`route ${match.route.config.path} is not bound to a schema yet`);
    database ??= await services.database();
    const { schema, contextValue, execute } = await enveloped(exchange.carrier);
    return (await execute({ schema, document: match.route.document, variableValues: variables, contextValue, operationName: match.route.config.operation })) as ExecutionResult;
  }

  /** The response last kept for `cacheAs`, when `failure` is the database's and it expired recently enough. */
  function lastKept(exchange: Exchange, failure: unknown, cacheAs?: { key: string }): GatewayResponse | undefined {
    if (!cacheAs || !unavailability(failure)) return undefined;
    const kept = cache.getStale(cacheAs.key, options.cacheStaleSeconds * 1000);
    if (!kept) return undefined;
    services.metrics.staleAnswer('response');
    exchange.responseHeaders['x-cache'] = 'STALE';
    return routeResponse(exchange, kept);
  }

  async function answer(exchange: Exchange, match: RouteMatch, variables: Record<string, unknown>, cacheAs?: { key: string; seconds: number }): Promise<GatewayResponse> {
    let result: ExecutionResult;
    try {
      result = await (cacheAs ? sharedRuns.run(cacheAs.key, () => run(exchange, match, variables)) : run(exchange, match, variables));
    } catch (error) {
      const stale = lastKept(exchange, error, cacheAs);
      if (stale) return stale;
      throw error;
    }
    if (result.errors?.length) {
      const failure = result.errors.find((error) => unavailability(error));
      return lastKept(exchange, failure, cacheAs) ?? services.errors.fromGraphQL(result.errors as GraphQLError[], exchange);
    }
    const encoded = encodeRouteData(match.route, result.data as Record<string, unknown>);
    if (cacheAs) {
      cache.set(cacheAs.key, encoded, cacheAs.seconds);
      exchange.responseHeaders['x-cache'] = 'MISS';
    }
    return routeResponse(exchange, encoded);
  }

  /** Synchronous for the OpenAPI document and cache hits; a promise when the operation runs. */
  function handle(exchange: Exchange): GatewayResponse | Promise<GatewayResponse> | undefined {
    if (exchange.destination?.kind === 'document') return routeResponse(exchange, openapi);
    const match = matchedRoute(exchange);
    if (!match) return undefined;
    const variables = routeVariables(match, exchange.query);
    if (variables instanceof ParamError) return errorResponse(400, variables.message);
    const viewer: Viewer | null = exchange.caller?.viewer ?? null;
    const { path, cache: caching } = match.route.config;
    if (caching.seconds <= 0) return refused(exchange) ?? answer(exchange, match, variables);
    const key = cacheKey(routeKeys.get(match.route)!, variables, caching.scope === 'shared' ? 'shared' : `account:${viewer?.accountId ?? '-'}`);
    const cached = cache.get(key);
    services.metrics.responseCacheLookup(path, cached !== undefined);
    if (!cached) return refused(exchange, { key }) ?? answer(exchange, match, variables, { key, seconds: caching.seconds });
    exchange.responseHeaders['x-cache'] = 'HIT';
    return routeResponse(exchange, cached);
  }

  /**
   * A miss refused before any of its work when the database would refuse its first query anyway
   * (shedding load must cost little to help): the response last kept if there is one, else 503.
   */
  function refused(exchange: Exchange, cacheAs?: { key: string }): GatewayResponse | undefined {
    const refusal = database?.refusal?.();
    if (!refusal) return undefined;
    return lastKept(exchange, refusal, cacheAs) ?? services.errors.unexpected(refusal, exchange);
  }

  return {
    name: 'rest-routes',
    stages: {
      // A plugin listed before this one may serve the path (icons' files).
      route: (exchange) => (exchange.destination ? undefined : routeRequest(exchange, table, options.openapi.path)),
      handle,
    },
    yoga: [useCompiledOperations(new Set(table.routes.map((route) => route.document)), keptCompiledQueries(services.keep))],
    bind(served, api) {
      const { schema } = served();
      table.bind(schema);
      openapi = encodedJson(buildOpenApiDocument(schema, table.routes, options.openapi, api));
      enveloped = operationEnvelope(served);
    },
    watches: [operationsDir],
    close: async () => releaseRoutes(),
  };
};
