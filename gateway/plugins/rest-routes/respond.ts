// A REST route's finished answer: the body with its strong ETag (304 when the client has it) and,
// for a page, its Link header.
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { jsonResponse } from '../../pipeline/responses.ts';
import { ownedUtf8 } from '../../../lib/owned-bytes.ts';
import { matchesETag, strongETag } from './etag.ts';
import { linkHeader, pagePosition, type PagePosition } from './link-header.ts';
import type { CachedResponse } from './response-cache.ts';
import { RouteTable, type CompiledRoute } from './route-table.ts';

export function routeResponse(exchange: Exchange, { body, etag, position }: CachedResponse): GatewayResponse {
  // Responses depend on the caller's key (premium markup), so shared caches must not keep them.
  const headers: Record<string, string> = { etag, 'cache-control': 'private, no-cache' };
  if (position) headers.link = linkHeader(exchange.path, exchange.query, position);
  if (matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
  return jsonResponse(200, body, headers);
}

/** A JSON value encoded once: the ETag hashes, the cache keeps and the socket sends the same bytes. */
export function encodedJson(value: unknown, position?: PagePosition): CachedResponse {
  const body = ownedUtf8(JSON.stringify(value));
  return { body, etag: strongETag(body), position };
}

/** The route's envelope around an operation's data, encoded. */
export function encodeRouteData(route: CompiledRoute, data: Record<string, unknown>): CachedResponse {
  const value = RouteTable.body(route, data);
  return encodedJson(value, route.config.envelope === 'page' ? pagePosition(value) : undefined);
}
