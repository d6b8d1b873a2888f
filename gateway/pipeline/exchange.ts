// One request on its way through a gateway's pipeline, independent of the HTTP server that
// carries it (the node:http front, or Yoga inside `mesh dev` / `mesh start`).
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { VerifiedKey } from '../../prisma/accounts/api-keys.ts';
import type { RateLimitStanding, Viewer } from '../../resolvers/context.ts';
import { clientAddress } from './client-address.ts';

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * JSON, as text or as its UTF-8 bytes (cached responses keep bytes, so a hit is not encoded
   * again); omitted from HEAD responses and 304s (isBodyless) by whoever writes it.
   */
  body: string | Buffer;
  /**
   * Set on error responses (errorResponse): what went wrong, so that the error shaper can say it
   * in the form the request's destination speaks (a GraphQL response on /graphql).
   */
  error?: { message: string };
}

/** HEAD responses and 304s carry headers only. */
export function isBodyless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 304;
}

/** Who is calling, as the auth stage admitted them. */
export interface Caller {
  /** The key the caller proved it holds; null for an anonymous caller. */
  key: VerifiedKey | null;
  viewer: Viewer | null;
}

/** The path GraphQL is served on, in every serve mode (Mesh's and Yoga's default, which the gateway keeps). */
export const GRAPHQL_PATH = '/graphql';

/**
 * Where the router sent the request: how it is served, and its route as configured (a bounded
 * label for metrics and logs, unlike paths).
 */
export interface Destination {
  kind: 'rest' | 'graphql' | 'document' | 'probe' | 'file';
  route: string;
  /** The route admits callers without a key (as anonymous callers, under the per-address limit): files an <img> loads. */
  keyOptional?: boolean;
}

export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  header(name: string): string | undefined;
  /** The client's address (client-address.ts: the socket's peer, or as trusted proxies report it), for per-address limits and logs. */
  readonly ip: string;
  readonly requestId: string;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
  /** The server's own request objects: node's IncomingMessage, a fetch Request, or both (Yoga on node). */
  readonly carrier: RequestCarrier;
  destination?: Destination;
  caller?: Caller;
  /** The caller's standing against its rate limit once the limit phase counted the request (the resolvers' `usage`). */
  rateLimit?: RateLimitStanding;
  /** Headers every response to this request carries (rate-limit headers, request id). */
  readonly responseHeaders: Record<string, string>;
  /**
   * A plugin's own state for this request, under a symbol only that plugin holds (cheaper for
   * the garbage collector than a WeakMap per plugin, on every request).
   */
  [pluginState: symbol]: unknown;
}

/** What carries a request in a server: GraphQL contexts and Yoga's server context look alike. */
export interface RequestCarrier {
  req?: IncomingMessage;
  request?: Request;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The path and query of a request target, as sent: no dot segments resolved, nothing decoded.
 * (The WHATWG URL parser read `//icons/x` as host "icons".)
 */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  if (!target.startsWith('/')) target = originFormOf(target);
  const hash = target.indexOf('#');
  const bare = hash === -1 ? target : target.slice(0, hash);
  const mark = bare.indexOf('?');
  if (mark === -1) return { path: bare || '/', query: new URLSearchParams() };
  return { path: bare.slice(0, mark) || '/', query: new URLSearchParams(bare.slice(mark + 1)) };
}

/**
 * `http://host/icons?x=1` (absolute form, as proxies send it) becomes `/icons?x=1`. Unlike the
 * origin form, this goes through the URL parser, so its dot segments are resolved.
 */
function originFormOf(target: string): string {
  if (!URL.canParse(target)) return target;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

interface Arrival {
  method: string;
  target: string;
  header(name: string): string | undefined;
  ip: string;
  carrier: RequestCarrier;
}

function newExchange({ method, target, header, ip, carrier }: Arrival): Exchange {
  const { path, query } = splitTarget(target);
  // A caller's own request id is kept when it is a plain token (it goes into headers and logs).
  const offered = header('x-request-id');
  const requestId = offered !== undefined && REQUEST_ID.test(offered) ? offered : randomUUID();
  return {
    method: method.toUpperCase(),
    path,
    query,
    header,
    ip,
    requestId,
    startedAt: performance.now(),
    carrier,
    responseHeaders: { 'x-request-id': requestId },
  };
}

/**
 * A header of a node request, read from rawHeaders: node builds `req.headers` lazily, and a
 * request that only needs three headers should not pay for an object of all of them. Repeated
 * headers are joined with ", " (as node does for most of them).
 */
function rawHeader(raw: string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const candidate = raw[i]!;
    if (candidate.length === name.length && candidate.toLowerCase() === name) {
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
    }
  }
  return value;
}

/** `trustedProxies`: how many proxies in front of the gateway append to X-Forwarded-For (0: none). */
export function exchangeFromNode(req: IncomingMessage, trustedProxies = 0): Exchange {
  const raw = req.rawHeaders;
  const header = (name: string) => rawHeader(raw, name);
  return newExchange({
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    header,
    ip: clientAddress(req.socket.remoteAddress, trustedProxies > 0 ? header('x-forwarded-for') : undefined, trustedProxies),
    carrier: { req },
  });
}

/** A fetch Request, as Yoga sees it; `req` when Yoga runs on a node server. */
export function exchangeFromFetch(request: Request, req?: IncomingMessage, trustedProxies = 0): Exchange {
  const url = new URL(request.url);
  const header = (name: string) => request.headers.get(name) ?? undefined;
  return newExchange({
    method: request.method,
    target: `${url.pathname}${url.search}`,
    header,
    ip: clientAddress(req?.socket?.remoteAddress, trustedProxies > 0 ? header('x-forwarded-for') : undefined, trustedProxies),
    carrier: req ? { request, req } : { request },
  });
}
