// Every request needs an API key, in `X-API-Key: <key>` (the header name is configurable) or
// `Authorization: Bearer <key>`, never in the query string, where it would end up in logs and
// browser history. Keys are found by their public id and compared by digest in constant time
// (prisma/accounts/api-keys.ts); the records are kept for keyCacheSeconds (key-cache.ts), so a
// revocation takes effect within that time (at once for a key revoked on this gateway's account
// portal, and on every gateway when REDIS_URL is set: gateway/key-revocations.ts); while the
// database cannot answer, records up to
// keyStaleSeconds old still serve. The caller's account reaches the resolvers, which
// is what lets an owner see premium markup. Missing or invalid keys get 401 before any work is
// done; keys never reach a log line.
import { setTimeout as delay } from 'node:timers/promises';
import { whenReady } from '../../../lib/maybe-promise.ts';
import { checkApiKey, createKeyToucher, findApiKeyRecord, publicIdOf, type ApiKeyRecord } from '../../../prisma/accounts/api-keys.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { KeyCache } from './key-cache.ts';
import { apiKeyAuthOptions } from './options.ts';

/** The key a request presents: '' when none, undefined when a header is there but malformed. */
export function presentedKey(exchange: Pick<Exchange, 'header'>, headerName: string): string | undefined {
  const fromHeader = exchange.header(headerName.toLowerCase());
  if (fromHeader !== undefined) return fromHeader.trim() || undefined;
  const authorization = exchange.header('authorization');
  if (authorization === undefined) return '';
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/** A public id that no key has (keys' public ids are 10 letters and digits). */
const NO_PUBLIC_ID = '-';

export const useApiKeyAuth: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { header, allowAnonymous, publicPaths, keyCacheSeconds, keyStaleSeconds } = parsePluginOptions(apiKeyAuthOptions, rawOptions, where);
  const open = new Set(publicPaths);
  const prisma = async () => (await services.database()).prisma;
  // Kept across a config reload with the same times: the records say the same whatever the config.
  const records = services.keep(
    'api-key-auth:records',
    { keyCacheSeconds, keyStaleSeconds },
    () =>
      new KeyCache({
        ttlSeconds: keyCacheSeconds,
        staleSeconds: keyStaleSeconds,
        lookup: async (publicId) => findApiKeyRecord(await prisma(), publicId),
        onStale: () => services.metrics.staleAnswer('key-record'),
      }),
  );
  // A key revoked on the account portal (of this gateway, or of any gateway on the same Redis) stops working with the next request.
  services.keyRevocations.listen((publicId) => records.forget(publicId));
  const touch = createKeyToucher(prisma);
  const missing = `An API key is required: send it in the ${header} header or as Authorization: Bearer <key>`;
  // RFC 9110 (11.6.1): a 401 says how to authenticate.
  const challenge = { 'www-authenticate': `Bearer realm="icon-catalogue", charset="UTF-8"` };

  const admit = (exchange: Exchange, presented: string, record: ApiKeyRecord | null) => {
    const key = checkApiKey(record, presented);
    if (!key) return errorResponse(401, 'The API key is invalid or has been revoked', { ...challenge });
    exchange.caller = { key, viewer: { accountId: key.accountId } };
    touch(key);
    return undefined;
  };

  const authenticate = (exchange: Exchange) => {
    if (open.has(exchange.path)) return undefined;
    const presented = presentedKey(exchange, header);
    if (presented === '') {
      if (!allowAnonymous && !exchange.destination?.keyOptional) return errorResponse(401, missing, { ...challenge });
      exchange.caller = { key: null, viewer: null };
      return undefined;
    }
    const publicId = presented === undefined ? undefined : publicIdOf(presented);
    if (publicId === undefined) return admit(exchange, '', null);
    return whenReady(
      () => records.record(publicId),
      (record) => admit(exchange, presented!, record),
    );
  };

  return {
    name: 'api-key-auth',
    stages: { auth: authenticate },
    guards: (exchange) => !open.has(exchange.path) && (presentedKey(exchange, header) !== '' || (!allowAnonymous && !exchange.destination?.keyOptional)),
    async start(timeoutMs) {
      // Prisma compiles a query on its first use, on the thread that serves requests, and its
      // first query also starts its WebAssembly compiler: 140 ms alone, 270 ms under load, with
      // every request in flight waiting. The key lookup is compiled now, before serving, by
      // looking up a public id no key has; a database that does not answer is the readiness
      // probe's business, not the start's.
      const warmUp = prisma().then((client) => findApiKeyRecord(client, NO_PUBLIC_ID));
      await Promise.race([warmUp.catch(() => undefined), delay(timeoutMs, undefined, { ref: false })]);
    },
    describes: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: header, description: `The API key in the ${header} header.` },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token: `Authorization: Bearer <key>`.' },
      },
      security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, ...(allowAnonymous ? [{}] : [])],
      responses: [
        {
          status: 401,
          description: 'The API key is missing, invalid or revoked.',
          headers: [{ name: 'WWW-Authenticate', description: `How to authenticate: \`${challenge['www-authenticate']}\`.`, schema: { type: 'string' } }],
        },
      ],
      overview: [
        `**Authentication.** Every request needs an API key, in the \`${header}\` header or as \`Authorization: Bearer <key>\` (never in the query string). A missing, invalid or revoked key gives 401 with \`WWW-Authenticate\`.${allowAnonymous ? ' Requests without a key are accepted too, under a lower limit shared per IP address.' : ''}`,
      ],
    },
  };
};
