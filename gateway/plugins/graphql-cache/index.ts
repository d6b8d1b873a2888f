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

export const useGraphqlCache: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { seconds, maxEntries } = parsePluginOptions(graphqlCacheOptions, rawOptions, where);
  const exchangeOf = (request: Request, context: unknown) => services.exchangeOf({ request, req: (context as RequestCarrier | undefined)?.req });
  const cache = useResponseCache({
    session: (request, context) => sessionOf(exchangeOf(request, context)),
    enabled: (request, context) => seconds > 0 && exchangeOf(request, context)?.destination?.kind === 'graphql',
    ttl: seconds * 1000,
    cache: createInMemoryCache({ max: maxEntries }),
    includeExtensionMetadata: false,
    shouldCacheResult: ({ result }) => !result.errors?.length && Buffer.byteLength(JSON.stringify(result.data ?? null)) <= MAX_CACHED_RESULT_BYTES,
  });
  const privateResponses: YogaPlugin = {
    // The cache adds ETag and Last-Modified; results depend on the caller's key (sent in a
    // header shared caches do not know to vary on), so no shared cache may keep them.
    onResponse({ request, response, serverContext }) {
      if (exchangeOf(request, serverContext)?.destination?.kind === 'graphql') response.headers.set('cache-control', 'private, no-store');
    },
  };
  return { name: 'graphql-cache', yoga: [cache, privateResponses] };
};
