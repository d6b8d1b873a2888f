// What the gateway records about every request it answered: one Prometheus observation and one
// JSON access-log line (request id, method, route, path, status, duration, account, cache
// result). The query string is left out of the log: it is the caller's business, and a
// careless client may put a key in it. Probes are counted but logged at debug level only, so a
// load balancer polling every second does not fill the log.
import { logger } from '../../../lib/logger.ts';
import type { GatewayMetrics } from '../../metrics/metrics.ts';
import type { Exchange } from '../../pipeline/exchange.ts';

/** The route a request went to, as configured: bounded, unlike paths. */
export function routeLabel(exchange: Exchange): string {
  return exchange.destination?.route ?? 'unrouted';
}

export function recordRequest(metrics: GatewayMetrics, exchange: Exchange, status: number): void {
  const seconds = (performance.now() - exchange.startedAt) / 1000;
  const route = routeLabel(exchange);
  metrics.request(route, exchange.method, status, seconds);
  const ms = Math.round(seconds * 10_000) / 10;
  if (exchange.destination?.kind === 'probe') return void logger.debug({ msg: 'probe', path: exchange.path, status, ms });
  const cache = exchange.responseHeaders['x-cache'];
  logger.info({
    msg: 'request',
    requestId: exchange.requestId,
    method: exchange.method,
    route,
    path: exchange.path,
    status,
    ms,
    account: exchange.caller?.viewer?.accountId ?? null,
    ...(cache === undefined ? {} : { cache }),
    ip: exchange.ip,
  });
}
