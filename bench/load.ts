// One measurement: autocannon against one URL, a warm-up run first (discarded except for its
// status codes), then the measured run. Latency percentiles come from every response's own
// time in fractional milliseconds (autocannon's histogram keeps whole milliseconds only, which
// reads 0 ms for most of a fast server's responses). Every response's X-Cache header is
// counted, and the latencies of cached responses (X-Cache HIT or STALE) are also kept apart,
// so a run can tell a miss that is slow from a miss that stalls the hits beside it. With
// `nextPath`, every request (all connections together) takes the next path it gives
// (autocannon's setupRequest), instead of repeating `url`'s.
import autocannon from 'autocannon';
import { type CacheCounts, countCacheHeader, emptyCacheCounts, headerValue } from './cache-header.ts';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** The path of each request, for distinct-URL scenarios (else `url`'s own, every time). */
  nextPath?: () => string;
  /** The CPU time the server process has used so far, in seconds (children.ts processCpuSeconds). */
  serverCpuSeconds?: () => number | undefined;
}

export interface RunStats {
  /** Responses received in the measured run. */
  responses: number;
  durationSeconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Latency of the cached responses (X-Cache HIT or STALE) alone; NaN when there were none. */
  cached: { p99: number; max: number };
  /** Latency of the other responses (misses, or no X-Cache) alone; NaN when there were none. */
  uncached: { p99: number; max: number };
  /** Non-2xx responses, warm-up included. */
  non2xx: number;
  /** Connection errors and timeouts, warm-up included. */
  errors: number;
  timeouts: number;
  /** Status code -> count, warm-up included. */
  statusCodes: Record<string, number>;
  /** X-Cache values of the measured run's responses. */
  cache: CacheCounts;
  /**
   * The server's CPU time over the measured run divided by its responses, in microseconds; NaN
   * unless `serverCpuSeconds` was given. For a server that keeps its core busy this is about the
   * inverse of its req/s (README, "Speed": what it can and cannot tell).
   */
  cpuMicrosPerResponse: number;
}

function run(options: autocannon.Options, onLatency?: (ms: number) => void): Promise<autocannon.Result> {
  const instance = autocannon(options);
  if (onLatency) instance.on('response', (_client, _status, _bytes, responseTime) => onLatency(responseTime));
  return Promise.resolve(instance);
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Whether an X-Cache value says the response came from the cache. */
const isCachedValue = (value: string | string[] | undefined) => /^\s*(HIT|STALE)\b/i.test((Array.isArray(value) ? value[0] : value) ?? '');

interface CacheState {
  counts: CacheCounts;
  /** Whether the response autocannon reports next came from the cache: its onResponse runs just before, in the same call. */
  lastWasCached: boolean;
}

/** One request definition: the next path on each request when given, and the X-Cache of each response counted. */
function requestDefinition(nextPath: (() => string) | undefined, cache: CacheState): autocannon.Request {
  return {
    method: 'GET',
    onResponse: (_status, _body, _context, headers) => {
      const value = headerValue(headers, 'x-cache');
      countCacheHeader(cache.counts, value);
      cache.lastWasCached = isCachedValue(value);
    },
    ...(nextPath && {
      setupRequest: (request) => {
        request.path = nextPath();
        return request;
      },
    }),
  };
}

function tailOf(latencies: number[]): { p99: number; max: number } {
  const sorted = Float64Array.from(latencies).sort();
  return { p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1]! : NaN };
}

export async function measure(options: LoadOptions): Promise<RunStats> {
  const cache: CacheState = { counts: emptyCacheCounts(), lastWasCached: false };
  const path = new URL(options.url).pathname + new URL(options.url).search;
  const common: autocannon.Options = {
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    timeout: 10,
    requests: [{ method: 'GET', path }],
    // Each connection its own request object: autocannon keeps the built request on the
    // object, so connections sharing one would all send the last one built as their first.
    setupClient: (client) => client.setRequests([{ path, ...requestDefinition(options.nextPath, cache) }]),
  };
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const count = (result: autocannon.Result) => {
    non2xx += result.non2xx;
    errors += result.errors;
    timeouts += result.timeouts;
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + Number(count);
  };

  if (options.warmupSeconds > 0) count(await run({ ...common, duration: options.warmupSeconds }));

  cache.counts = emptyCacheCounts(); // the measured run's only
  const latencies: number[] = [];
  const cachedLatencies: number[] = [];
  const uncachedLatencies: number[] = [];
  const cpuBefore = options.serverCpuSeconds?.();
  const result = await run({ ...common, duration: options.seconds }, (ms) => {
    latencies.push(ms);
    (cache.lastWasCached ? cachedLatencies : uncachedLatencies).push(ms);
  });
  const cpuAfter = options.serverCpuSeconds?.();
  count(result);
  const sorted = Float64Array.from(latencies).sort();
  const responses = result.requests.total;
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? NaN : cpuAfter - cpuBefore;
  return {
    responses,
    durationSeconds: result.duration,
    requestsPerSecond: result.duration > 0 ? responses / result.duration : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    cached: tailOf(cachedLatencies),
    uncached: tailOf(uncachedLatencies),
    non2xx,
    errors,
    timeouts,
    statusCodes,
    cache: cache.counts,
    cpuMicrosPerResponse: responses > 0 ? (cpuSeconds * 1e6) / responses : NaN,
  };
}
