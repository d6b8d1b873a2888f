// What the front records about every request it answered: one Prometheus observation and one
// JSON access-log line (request id, method, route, path, status, duration, account, cache
// result). The query string is left out of the log: it is the caller's business, and a
// careless client may put a key in it. Probes (/healthz, /readyz, /metrics) are counted but
// logged at debug level only, so a load balancer polling every second does not fill the log.
import type { Exchange } from '../pipeline/exchange.ts';
import { logger, writeInfoLine } from '../../lib/logger.ts';
import { metrics } from './metrics.ts';

/** The route a request went to, as configured: bounded, unlike paths. */
export function routeLabel(exchange: Exchange): string {
  const destination = exchange.destination;
  if (!destination) return 'unrouted';
  if (destination.kind === 'rest') return destination.match.route.config.path;
  if (destination.kind === 'graphql') return '/graphql';
  return exchange.path; // the OpenAPI document
}

const json = JSON.stringify;

export function recordRequest(exchange: Exchange, status: number, startedAt: number): void {
  const seconds = (performance.now() - startedAt) / 1000;
  const route = routeLabel(exchange);
  metrics.request(route, exchange.method, status, seconds);
  if (!logger.isLevelEnabled('info')) return; // LOG_LEVEL=warn: the line is not even built
  const account = exchange.caller?.viewer?.accountId ?? null;
  const cache = exchange.responseHeaders['x-cache'];
  writeInfoLine(
    `"msg":"request","requestId":${json(exchange.requestId)},"method":${json(exchange.method)},"route":${json(route)},` +
      `"path":${json(exchange.path)},"status":${status},"ms":${Math.round(seconds * 10_000) / 10},"account":${account},` +
      `${cache === undefined ? '' : `"cache":${json(cache)},`}"ip":${json(exchange.ip)}`,
  );
}

export function recordProbe(path: string, method: string, status: number, startedAt: number): void {
  const seconds = (performance.now() - startedAt) / 1000;
  metrics.request(path, method, status, seconds);
  logger.debug({ msg: 'probe', path, status, ms: Math.round(seconds * 10_000) / 10 });
}
