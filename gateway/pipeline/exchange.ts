// One request on its way through the gateway pipeline, independent of the HTTP framework that
// carries it (our node:http front, or Yoga inside `mesh dev` / `mesh start`).
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../plugins/api-key-auth.ts';
import type { RateLimitDecision } from '../rate-limit/limiter.ts';
import type { RouteMatch } from '../rest/route-table.ts';

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text; omitted from HEAD responses and 304s (isBodyless) by whoever writes it. */
  body: string;
}

/** HEAD responses and 304s carry headers only. */
export function isBodyless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 304;
}

/** Where the router sent the request. */
export type Destination = { kind: 'rest'; match: RouteMatch } | { kind: 'graphql' } | { kind: 'openapi' };

export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  header(name: string): string | undefined;
  /** The client's address, for per-IP limits of anonymous callers. */
  readonly ip: string;
  readonly requestId: string;
  destination?: Destination;
  caller?: Caller;
  limit?: RateLimitDecision;
  /** Headers every response to this request carries (rate-limit headers, request id). */
  readonly responseHeaders: Record<string, string>;
}

function newExchange(method: string, rawUrl: string, header: (name: string) => string | undefined, ip: string): Exchange {
  const url = new URL(rawUrl, 'http://gateway.invalid');
  const requestId = header('x-request-id')?.slice(0, 128) || randomUUID();
  return {
    method: method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    header,
    ip,
    requestId,
    responseHeaders: { 'x-request-id': requestId },
  };
}

export function exchangeFromNode(req: IncomingMessage): Exchange {
  return newExchange(
    req.method ?? 'GET',
    req.url ?? '/',
    (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    req.socket.remoteAddress ?? 'unknown',
  );
}

export function exchangeFromFetch(request: Request, ip = 'unknown'): Exchange {
  return newExchange(request.method, request.url, (name) => request.headers.get(name) ?? undefined, ip);
}
