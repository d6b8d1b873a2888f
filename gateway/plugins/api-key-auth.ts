// Every request needs an API key, in `X-API-Key: <key>` or `Authorization: Bearer <key>`
// (never in the query string, where it would end up in logs and browser history). The key's
// account reaches the resolvers as the context's `viewer`, which is what lets an owner see
// premium markup. Missing or invalid keys are answered with 401 before any work is done.
import type { Plugin } from 'graphql-yoga';
import { verifyApiKey, type VerifiedKey } from '../../prisma/accounts/api-keys.ts';
import type { PrismaClient } from '../../prisma/generated/client.ts';
import type { Viewer } from '../../resolvers/context.ts';
import { errorResponse } from '../http/error-body.ts';

export interface ApiKeyAuthOptions {
  prisma: PrismaClient;
  /**
   * Accept requests without a key (they get no account, so no premium markup).
   * @default false
   */
  allowAnonymous?: boolean;
  /** Paths that need no key, such as health checks. @default [] */
  publicPaths?: readonly string[];
}

export interface Caller {
  key: VerifiedKey | null;
  viewer: Viewer | null;
}

const callers = new WeakMap<Request, Caller>();

/** The authenticated caller of a request (after this plugin's onRequest ran). */
export function callerOf(request: Request): Caller | undefined {
  return callers.get(request);
}

/** The key presented by a request: '' when none, undefined when the header is malformed. */
export function presentedKey(headers: Headers): string | undefined {
  const apiKey = headers.get('x-api-key');
  if (apiKey !== null) return apiKey.trim() || undefined;
  const authorization = headers.get('authorization');
  if (authorization === null) return '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

export function useApiKeyAuth({ prisma, allowAnonymous = false, publicPaths = [] }: ApiKeyAuthOptions): Plugin<{ viewer?: Viewer | null }> {
  const open = new Set(publicPaths);
  return {
    async onRequest({ request, url, endResponse }) {
      if (open.has(url.pathname)) return;
      const presented = presentedKey(request.headers);
      if (presented === '') {
        if (allowAnonymous) {
          callers.set(request, { key: null, viewer: null });
          return;
        }
        return endResponse(errorResponse(401, 'An API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>'));
      }
      const key = presented === undefined ? undefined : await verifyApiKey(prisma, presented);
      if (!key) return endResponse(errorResponse(401, 'The API key is invalid or has been revoked'));
      callers.set(request, { key, viewer: { accountId: key.accountId } });
    },
    onContextBuilding({ context, extendContext }) {
      const request = (context as { request?: Request }).request;
      extendContext({ viewer: (request && callers.get(request)?.viewer) ?? null });
    },
  };
}
