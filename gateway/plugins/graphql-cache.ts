// GraphQL results kept in this process for a few seconds (the REST routes keep their own), by
// Yoga's response-cache plugin. A result may hold premium markup that only its account may
// see, so every entry belongs to one account: the session is the caller's account, taken
// from the gateway's exchange (Mesh's own yaml `responseCache` cannot do this: the session
// it interpolates is evaluated before the context has the caller). Anonymous callers share
// one session, as they share entitlements. Results with errors are not kept.
import type { Plugin } from 'graphql-yoga';
import { createInMemoryCache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { z } from 'zod';
import { exchangeOf } from '../pipeline/yoga-bridge.ts';
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

/** The cache session of a request: its account, or one shared session for anonymous callers. */
export function sessionOf(context: Record<string, unknown>): string {
  const accountId = exchangeOf(context)?.caller?.viewer?.accountId;
  return accountId === undefined ? 'anonymous' : `account:${accountId}`;
}

export default function useGraphqlCache(rawOptions: Record<string, unknown> = {}): Plugin {
  const { seconds, maxEntries } = parsePluginOptions(graphqlCacheOptions, PLUGIN_NAME, rawOptions);
  return useResponseCache({
    session: (_request, context) => sessionOf(context as unknown as Record<string, unknown>),
    enabled: () => seconds > 0,
    ttl: seconds * 1000,
    cache: createInMemoryCache({ max: maxEntries }),
    includeExtensionMetadata: false,
  });
}
