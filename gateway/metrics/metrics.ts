// Prometheus metrics of one gateway, served at /metrics by the observability plugin:
// requests by route, method and status, their latency, rate-limit refusals and uncounted
// requests, Redis's state, authentication failures and throttling, response-cache hits and
// misses, answers given from stale key records and responses during a database outage, the
// HTTP server's connections and refusals, and Node's own process metrics (memory, event loop
// lag, GC). Route labels are the configured route paths (/icons/{ref}, not /icons/mdi-home), so the number of series
// stays bounded whatever clients ask for. The per-request series (requests, latency, cache
// lookups) are counted in plain maps and handed to prom-client when scraped: its label
// handling on every request was a measurable part of a cached response (bench/RESULTS.md).
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { onDroppedLogLine } from '../../lib/logger.ts';
import { RouteLatencyHistogram } from './route-latency.ts';

/** Latency buckets in seconds: a cache hit is well under a millisecond, a cold search tens. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Counts kept per label combination until prom-client collects them (on scrape), so that
 * counting a request costs a map lookup instead of prom-client's label resolution.
 */
class PendingCounts<Labels extends Record<string, string>> {
  private readonly pending = new Map<string, { labels: Labels; count: number }>();

  /** Counts one for `key`; false when the key is new (then `start` it with its labels). */
  increment(key: string): boolean {
    const entry = this.pending.get(key);
    if (entry) entry.count++;
    return entry !== undefined;
  }

  start(key: string, labels: Labels): void {
    this.pending.set(key, { labels, count: 1 });
  }

  flushInto(counter: Counter<Extract<keyof Labels, string>>): void {
    for (const entry of this.pending.values()) {
      if (entry.count === 0) continue;
      counter.inc(entry.labels, entry.count);
      entry.count = 0;
    }
  }
}

/** A prom-client counter that takes its counts from `pending` whenever it is collected. */
function registerPendingCounter<Labels extends Record<string, string>>(
  registry: Registry,
  pending: PendingCounts<Labels>,
  { name, help, labelNames }: { name: string; help: string; labelNames: Extract<keyof Labels, string>[] },
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      pending.flushInto(this);
    },
  });
}

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly pendingRequests = new PendingCounts<{ route: string; method: string; status: string }>();
  private readonly pendingCacheLookups = new PendingCounts<{ route: string; result: string }>();
  private readonly latency = new RouteLatencyHistogram(
    'icon_gateway_request_duration_seconds',
    'Time from the request to the end of its response, by route',
    LATENCY_BUCKETS,
  );
  private readonly rateLimited = new Counter({
    name: 'icon_gateway_rate_limit_rejections_total',
    help: 'Requests refused with 429, by caller kind (key or anonymous)',
    labelNames: ['caller'] as const,
    registers: [this.registry],
  });
  private readonly rateLimitStoreFailures = new Counter({
    name: 'icon_gateway_rate_limit_store_failures_total',
    help: 'Requests the rate-limit store could not count, by outcome: allowed (failOpen: true, let through uncounted) or refused (503)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly redisUp = new Gauge({
    name: 'icon_gateway_redis_up',
    help: 'Whether the Redis a plugin counts in answers (1) or is known to be down (0; requests do not wait for it), by plugin',
    labelNames: ['plugin'] as const,
    registers: [this.registry],
  });
  private readonly authFailures = new Counter({
    name: 'icon_gateway_auth_failures_total',
    help: 'Requests answered 401 (missing, malformed, unknown, wrong or revoked key), counted by the auth-throttle plugin',
    registers: [this.registry],
  });
  private readonly authThrottled = new Counter({
    name: 'icon_gateway_auth_throttled_total',
    help: 'Requests refused with 429 because their address failed authentication too often',
    registers: [this.registry],
  });
  private readonly refusedConnections = new Counter({
    name: 'icon_gateway_connections_refused_total',
    help: 'Connections closed as they arrived: server.maxConnections or server.maxConnectionsPerAddress were open and none was idle (npm start)',
    registers: [this.registry],
  });
  private readonly closedIdleConnections = new Counter({
    name: 'icon_gateway_idle_connections_closed_total',
    help: 'Idle keep-alive connections closed to make room for a new one at server.maxConnections or server.maxConnectionsPerAddress (npm start)',
    registers: [this.registry],
  });
  private readonly clientErrors = new Counter({
    name: 'icon_gateway_client_errors_total',
    help: 'Requests the HTTP server refused before the gateway saw them (400 malformed, 408 too slow, 431 headers too large), by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private openConnections: Gauge | undefined;
  private readonly staleAnswers = new Counter({
    name: 'icon_gateway_stale_answers_total',
    help: 'Key records and REST responses used past their time because the database could not answer, by what',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });
  private readonly downloadBatches = new Counter({
    name: 'icon_gateway_download_batches_total',
    help: 'Batches of counted downloads sent to the database, by outcome (applied, applied-before: a resend of one that went through, failed: the batch or its fold failed and is done again later)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly droppedDownloads = new Counter({
    name: 'icon_gateway_downloads_dropped_total',
    help: 'Downloads not counted because the gateway held maxPendingIcons icons the database had not taken yet',
    registers: [this.registry],
  });
  private readonly configReloads = new Counter({
    name: 'icon_gateway_config_reloads_total',
    help: 'Config reloads (SIGHUP, or a change under npm run dev), by result: applied, or failed (the config did not validate or its gateway did not build; the running one kept serving)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly lastReloadSuccessful = new Gauge({
    name: 'icon_gateway_config_last_reload_successful',
    help: 'Whether the last config reload was applied (1; also before any) or failed (0): the config on disk is not the one served',
    registers: [this.registry],
  });
  private readonly droppedLogLines = new Counter({
    name: 'icon_gateway_log_lines_dropped_total',
    help: 'Log lines dropped because stdout could not keep up (more than 16 MiB waiting)',
    registers: [this.registry],
  });

  constructor() {
    registerPendingCounter(this.registry, this.pendingRequests, {
      name: 'icon_gateway_requests_total',
      help: 'Requests answered, by route, method and HTTP status',
      labelNames: ['route', 'method', 'status'],
    });
    registerPendingCounter(this.registry, this.pendingCacheLookups, {
      name: 'icon_gateway_response_cache_total',
      help: 'REST response cache lookups, by route and result (hit or miss)',
      labelNames: ['route', 'result'],
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'icon_gateway_' });
    this.lastReloadSuccessful.set(1);
    this.configReloads.inc({ result: 'applied' }, 0);
    this.configReloads.inc({ result: 'failed' }, 0);
    onDroppedLogLine(() => this.droppedLogLines.inc());
  }

  request(route: string, method: string, status: number, seconds: number): void {
    const key = `${route}\u0000${method}\u0000${status}`;
    if (!this.pendingRequests.increment(key)) this.pendingRequests.start(key, { route, method, status: String(status) });
    this.latency.observe(route, seconds);
  }

  rateLimitRejection(caller: 'key' | 'anonymous'): void {
    this.rateLimited.inc({ caller });
  }

  rateLimitStoreFailure(outcome: 'allowed' | 'refused'): void {
    this.rateLimitStoreFailures.inc({ outcome });
  }

  redisState(plugin: string, up: boolean): void {
    this.redisUp.set({ plugin }, up ? 1 : 0);
  }

  authFailure(): void {
    this.authFailures.inc();
  }

  authThrottle(): void {
    this.authThrottled.inc();
  }

  connectionRefused(): void {
    this.refusedConnections.inc();
  }

  idleConnectionClosed(): void {
    this.closedIdleConnections.inc();
  }

  clientError(status: number): void {
    this.clientErrors.inc({ status: String(status) });
  }

  /** The server carrying the gateway (one per gateway) reports its open connections, read when scraped. */
  countConnections(count: () => number): void {
    if (this.openConnections) return;
    this.openConnections = new Gauge({
      name: 'icon_gateway_open_connections',
      help: 'Open HTTP connections (npm start)',
      registers: [this.registry],
      collect() {
        this.set(count());
      },
    });
  }

  configReload(result: 'applied' | 'failed'): void {
    this.configReloads.inc({ result });
    this.lastReloadSuccessful.set(result === 'applied' ? 1 : 0);
  }

  staleAnswer(what: 'key-record' | 'response'): void {
    this.staleAnswers.inc({ what });
  }

  downloadBatch(outcome: 'applied' | 'applied-before' | 'failed'): void {
    this.downloadBatches.inc({ outcome });
  }

  downloadDropped(): void {
    this.droppedDownloads.inc();
  }

  responseCacheLookup(route: string, hit: boolean): void {
    const result = hit ? 'hit' : 'miss';
    const key = `${route}\u0000${result}`;
    if (!this.pendingCacheLookups.increment(key)) this.pendingCacheLookups.start(key, { route, result });
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    // The latency histogram is not in the registry: it is written after it, in the same text
    // format (the registry must stay in that format, not OpenMetrics, and gets no default labels).
    return { contentType: this.registry.contentType, body: `${await this.registry.metrics()}\n${this.latency.exposition()}` };
  }
}
