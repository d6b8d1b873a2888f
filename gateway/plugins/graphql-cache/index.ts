// GraphQL results kept in this process for a few seconds (the REST routes keep their own), by
// Yoga's response-cache plugin. A result may hold premium markup that only its account may
// see, so every entry belongs to one account: the session is the caller's account, taken from
// the request's exchange (Mesh's own yaml `responseCache` cannot do this: the session it
// interpolates is evaluated before the context has the caller). When the caller cannot be
// told, the request gets a session of its own, so nothing is shared. Anonymous callers share
// one session, as they share entitlements. Results with errors, and results over
// MAX_CACHED_RESULT_BYTES, are not kept, so maxEntries bounds the memory too. REST operations
// run through the same envelope but are never kept here: the REST routes cache whole responses.
import { randomUUID } from 'node:crypto';
import { createInMemoryCache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { Exchange, RequestCarrier } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { parsePluginOptions } from '../options.ts';
import { matchesETag } from '../rest-routes/etag.ts';
import { graphqlCacheOptions } from './options.ts';

/** Larger results (100 icons with markup are about 150 KB) are answered but not kept. */
export const MAX_CACHED_RESULT_BYTES = 64 * 1024;

/**
 * The cache session of a request: its account; one shared session for anonymous callers; a
 * session of its own when the gateway did not authenticate it (fail closed).
 */
export function sessionOf(exchange: Exchange | undefined): string {
  const caller = exchange?.caller;
  if (!caller) return `unknown:${randomUUID()}`;
  return caller.viewer ? `account:${caller.viewer.accountId}` : 'anonymous';
}

/** An entity-tag as RFC 9110 writes it: the cache's keys are bare hex digests. */
export function quotedETag(tag: string): string {
  return tag.startsWith('"') || tag.startsWith('W/"') ? tag : `"${tag}"`;
}

export const useGraphqlCache: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { seconds, maxEntries } = parsePluginOptions(graphqlCacheOptions, rawOptions, where);
  const exchangeOf = (request: Request, context: unknown) => services.exchangeOf({ request, req: (context as RequestCarrier | undefined)?.req });
  const cache = useResponseCache({
    session: (request, context) => sessionOf(exchangeOf(request, context)),
    enabled: (request, context) => seconds > 0 && exchangeOf(request, context)?.destination?.kind === 'graphql',
    ttl: seconds * 1000,
    // The caller's rate-limit standing changes with every request.
    ttlPerSchemaCoordinate: { 'Query.usage': 0 },
    // Kept across a config reload with the same size: the schema does not change with the config.
    cache: services.keep('graphql-cache:results', { maxEntries }, () => createInMemoryCache({ max: maxEntries })),
    includeExtensionMetadata: false,
    shouldCacheResult: ({ result }) => !result.errors?.length && Buffer.byteLength(JSON.stringify(result.data ?? null)) <= MAX_CACHED_RESULT_BYTES,
  });
  const privateResponses: YogaPlugin = {
    // Results depend on the caller's key (sent in a header shared caches do not know to vary
    // on), so no shared cache may keep them. The cache adds ETag (its key, unquoted) and
    // Last-Modified: the ETag is made an entity-tag (RFC 9110, 8.8.3: quoted), and a GET whose
    // If-None-Match has it (weak comparison, as for REST) gets 304 without a body.
    onResponse({ request, response, serverContext, setResponse, fetchAPI }) {
      if (exchangeOf(request, serverContext)?.destination?.kind !== 'graphql') return;
      response.headers.set('cache-control', 'private, no-store');
      const etag = response.headers.get('etag');
      if (!etag) return;
      const quoted = quotedETag(etag);
      // Deleted first: whatwg-node's Headers made from an object (Yoga's `{ ETag }`) would keep
      // `ETag` beside a new `etag`, and both would be sent.
      response.headers.delete('etag');
      response.headers.set('etag', quoted);
      if (request.method === 'GET' && response.status === 200 && matchesETag(request.headers.get('if-none-match') ?? undefined, quoted)) {
        const headers = new fetchAPI.Headers(response.headers);
        headers.delete('content-length');
        headers.delete('content-type');
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
      }
    },
  };
  return { name: 'graphql-cache', yoga: [cache, privateResponses] };
};
