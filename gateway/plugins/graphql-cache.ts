// GraphQL results kept in this process for a few seconds (the REST routes keep their own), by
// Yoga's response-cache plugin. A result may hold premium markup that only its account may
// see, so every entry belongs to one account: the session is the caller's account, taken
// from the gateway's exchange (Mesh's own yaml `responseCache` cannot do this: the session
// it interpolates is evaluated before the context has the caller). The session is computed
// from the request itself, which both servers know at that point (our front's node request,
// or Yoga's fetch Request under `mesh dev`/`mesh start`); when the caller cannot be told, the
// request gets a session of its own, so nothing is shared. Anonymous callers share one
// session, as they share entitlements. Results with errors, and results over
// MAX_CACHED_RESULT_BYTES, are not kept, so maxEntries bounds the memory too.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { createInMemoryCache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { z } from 'zod';
import { exchangeFor } from '../pipeline/yoga-bridge.ts';
import { parsePluginOptions } from './plugin-options.ts';

export const graphqlCacheOptions = z
  .object({
    /** Seconds a result is kept; 0 turns the cache off. @default 30 */
    seconds: z.number().min(0).max(3600).default(30),
    /** Most results kept (a result of 100 icons with markup is about 150 KB). @default 250 */
    maxEntries: z.number().int().positive().default(250),
  })
  .strict();

export const PLUGIN_NAME = '@icon-catalogue/gateway/graphql-cache';

/** Larger results (100 icons with markup are about 150 KB) are answered but not kept. */
export const MAX_CACHED_RESULT_BYTES = 64 * 1024;

/**
 * The cache session of a request: its account; one shared session for anonymous callers; a
 * session of its own when the gateway did not authenticate it (fail closed).
 */
export function sessionOf(request: Request, serverContext: { req?: IncomingMessage }): string {
  const caller = exchangeFor(serverContext.req, request)?.caller;
  if (!caller) return `unknown:${randomUUID()}`;
  return caller.viewer ? `account:${caller.viewer.accountId}` : 'anonymous';
}

export default function useGraphqlCache(rawOptions: Record<string, unknown> = {}): Plugin {
  const { seconds, maxEntries } = parsePluginOptions(graphqlCacheOptions, PLUGIN_NAME, rawOptions);
  const cache = useResponseCache({
    session: (request, context) => sessionOf(request, context as unknown as { req?: IncomingMessage }),
    enabled: () => seconds > 0,
    ttl: seconds * 1000,
    cache: createInMemoryCache({ max: maxEntries }),
    includeExtensionMetadata: false,
    shouldCacheResult: ({ result }) => !result.errors?.length && Buffer.byteLength(JSON.stringify(result.data ?? null)) <= MAX_CACHED_RESULT_BYTES,
  });
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(cache);
    },
    // The cache adds ETag and Last-Modified; results depend on the caller's key (sent in a
    // header shared caches do not know to vary on), so no shared cache may keep them.
    onResponse({ response }) {
      response.headers.set('cache-control', 'private, no-store');
    },
  };
}
