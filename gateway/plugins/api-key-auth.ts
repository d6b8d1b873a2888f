// Every request needs an API key, in `X-API-Key: <key>` (the header name is configurable) or
// `Authorization: Bearer <key>`, never in the query string, where it would end up in logs and
// browser history. Keys are found by their public id and compared by digest in constant time
// (prisma/accounts/api-keys.ts). The records are kept for keyCacheSeconds (auth/key-cache.ts),
// so a revocation takes effect within that time; a connection that already proved a key is
// checked against its own earlier copy, also in constant time (see `proven` below). The
// caller's account reaches the resolvers, which is what lets an owner see premium markup. Missing or invalid keys get 401 before any
// work is done; keys never reach a log line.
import { timingSafeEqual } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { z } from 'zod';
import { checkApiKey, findApiKeyRecord, publicIdOf, touchApiKey, type ApiKeyRecord, type VerifiedKey } from '../../prisma/accounts/api-keys.ts';
import { KeyCache } from '../auth/key-cache.ts';
import type { Viewer } from '../../resolvers/context.ts';
import type { Connection, Exchange } from '../pipeline/exchange.ts';
import { errorResponse, pipeline } from '../pipeline/pipeline.ts';
import { usePipelineInYoga } from '../pipeline/yoga-bridge.ts';
import { sharedDatabase } from '../runtime.ts';
import { parsePluginOptions } from './plugin-options.ts';

export const apiKeyAuthOptions = z
  .object({
    /** Header that carries the key (Authorization: Bearer is accepted too). @default "X-API-Key" */
    header: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name').default('X-API-Key'),
    /** Accept requests without any key; they share the rate limit of their IP address. @default false */
    allowAnonymous: z.boolean().default(false),
    /** Paths served without a key. @default ["/openapi.json"] */
    publicPaths: z.array(z.string().startsWith('/')).default(['/openapi.json']),
    /** Seconds a key's record is kept in memory: a revocation takes effect within this time. 0 checks the database on every request. @default 5 */
    keyCacheSeconds: z.number().min(0).max(300).default(5),
  })
  .strict();

export type ApiKeyAuthOptions = z.infer<typeof apiKeyAuthOptions>;

export interface Caller {
  key: VerifiedKey | null;
  viewer: Viewer | null;
}

export const PLUGIN_NAME = '@icon-catalogue/gateway/api-key-auth';

/** The key a request presents: '' when none, undefined when a header is there but malformed. */
export function presentedKey(exchange: Pick<Exchange, 'header'>, headerName: string): string | undefined {
  const fromHeader = exchange.header(headerName.toLowerCase());
  if (fromHeader !== undefined) return fromHeader.trim() || undefined;
  const authorization = exchange.header('authorization');
  if (authorization === undefined) return '';
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

export function createApiKeyStage({ header, allowAnonymous, publicPaths, keyCacheSeconds }: ApiKeyAuthOptions) {
  const open = new Set(publicPaths);
  const records = new KeyCache({
    ttlSeconds: keyCacheSeconds,
    lookup: async (publicId) => findApiKeyRecord((await sharedDatabase()).prisma, publicId),
  });
  const missing = `An API key is required: send it in the ${header} header or as Authorization: Bearer <key>`;
  // The key a connection last proved, with the record it was proved against: the next request
  // on that connection presenting the same key, while the same record is cached, is compared
  // with that copy in constant time instead of hashed (the SHA-256 was a microsecond of a
  // cached response). A refreshed record (a revocation, a new limit) is a new object, so the
  // key is then checked by digest again. The copy lives as long as the connection, like the
  // requests that carried it, and is zeroed when the connection closes; it is never written
  // anywhere. Keys are ASCII (KEY_PATTERN), so latin1 bytes are the key's bytes.
  const proven = new WeakMap<Connection, { secret: Buffer; record: ApiKeyRecord }>();
  const provenBefore = (connection: Connection | undefined, presented: string, record: ApiKeyRecord | null) => {
    const memo = connection && proven.get(connection);
    if (!memo || memo.record !== record || record.revoked || memo.secret.length !== presented.length) return false;
    return timingSafeEqual(memo.secret, Buffer.from(presented, 'latin1'));
  };
  const remember = (connection: Connection, presented: string, record: ApiKeyRecord) => {
    const memo = proven.get(connection);
    if (memo) memo.secret.fill(0);
    else connection.once('close', () => proven.get(connection)?.secret.fill(0));
    proven.set(connection, { secret: Buffer.from(presented, 'latin1'), record });
  };
  const admit = (exchange: Exchange, presented: string, record: ApiKeyRecord | null) => {
    const connection = keyCacheSeconds > 0 ? exchange.connection : undefined;
    let key = provenBefore(connection, presented, record) ? record!.key : undefined;
    if (!key) {
      key = checkApiKey(record, presented);
      if (!key) return errorResponse(401, 'The API key is invalid or has been revoked');
      if (connection) remember(connection, presented, record!);
    }
    exchange.caller = { key, viewer: { accountId: key.accountId } };
    touchApiKey(key, async () => (await sharedDatabase()).prisma);
    return undefined;
  };
  return (exchange: Exchange) => {
    if (open.has(exchange.path)) return undefined;
    const presented = presentedKey(exchange, header);
    if (presented === '') {
      if (!allowAnonymous) return errorResponse(401, missing);
      exchange.caller = { key: null, viewer: null };
      return undefined;
    }
    const publicId = presented === undefined ? undefined : publicIdOf(presented);
    if (publicId === undefined) return admit(exchange, '', null);
    const record = records.record(publicId);
    return record instanceof Promise ? record.then((found) => admit(exchange, presented!, found)) : admit(exchange, presented!, record);
  };
}

export default function useApiKeyAuth(rawOptions: Record<string, unknown> = {}): Plugin {
  const options = parsePluginOptions(apiKeyAuthOptions, PLUGIN_NAME, rawOptions);
  pipeline.register('auth', 'api-key', createApiKeyStage(options));
  return usePipelineInYoga();
}
