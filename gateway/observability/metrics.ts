// Prometheus metrics of one gateway process, served at /metrics by the front (server.ts):
// requests by route, method and status, their latency, rate-limit refusals, response-cache
// hits and misses, and Node's own process metrics (memory, event loop lag, GC). Route labels
// are the configured route paths (/icons/{ref}, not /icons/mdi-home), so the number of series
// stays bounded whatever clients ask for.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { processSingleton } from '../../lib/process-singleton.ts';
import { onDroppedLogLine } from '../../lib/logger.ts';

export const METRICS_PATH = '/metrics';

/** Latency buckets in seconds: a cache hit is well under a millisecond, a cold search tens. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'icon_gateway_requests_total',
    help: 'Requests answered, by route, method and HTTP status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'icon_gateway_request_duration_seconds',
    help: 'Time from the request to the end of its response, by route',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'icon_gateway_rate_limit_rejections_total',
    help: 'Requests refused with 429, by caller kind (key or anonymous)',
    labelNames: ['caller'] as const,
    registers: [this.registry],
  });
  private readonly rateLimitStoreFailures = new Counter({
    name: 'icon_gateway_rate_limit_store_failures_total',
    help: 'Requests whose rate-limit check could not reach the store (let through or refused per failOpen)',
    registers: [this.registry],
  });
  private readonly responseCache = new Counter({
    name: 'icon_gateway_response_cache_total',
    help: 'REST response cache lookups, by route and result (hit or miss)',
    labelNames: ['route', 'result'] as const,
    registers: [this.registry],
  });

  private readonly droppedLogLines = new Counter({
    name: 'icon_gateway_log_lines_dropped_total',
    help: 'Log lines dropped because stdout could not keep up (more than 16 MiB waiting)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'icon_gateway_' });
    onDroppedLogLine(() => this.droppedLogLines.inc());
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route }, seconds);
  }

  rateLimitRejection(caller: 'key' | 'anonymous'): void {
    this.rateLimited.inc({ caller });
  }

  rateLimitStoreFailure(): void {
    this.rateLimitStoreFailures.inc();
  }

  responseCacheLookup(route: string, hit: boolean): void {
    this.responseCache.inc({ route, result: hit ? 'hit' : 'miss' });
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

export const metrics = processSingleton('metrics', () => new GatewayMetrics());
