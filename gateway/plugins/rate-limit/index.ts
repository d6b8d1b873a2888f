// Rate limits per API key (1,000 an hour by default; a key's own limit from the database wins)
// and per IP address for anonymous callers, with their headers on every response, errors
// included: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), and Retry-After on 429. The
// counters live in this process (store: memory) or in Redis (store: redis, REDIS_URL), where
// every process and host sharing it sees one exact count. If Redis cannot be reached the
// request proceeds with a logged warning (failOpen: true) or is refused with 503.
import { whenReady } from '../../../lib/maybe-promise.ts';
import { ConfigError, formatPath } from '../../../lib/config-validation.ts';
import { logger } from '../../../lib/logger.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { ApiDescription, DescribedHeader, GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { RateLimiter, type RateLimitDecision } from './limiter.ts';
import { MemoryStore } from './memory-store.ts';
import { rateLimitOptions, type RateLimitOptions } from './options.ts';
import { parseClusterNodes, RedisStore } from './redis-store.ts';
import type { RateLimitStore } from './store.ts';

/** The store `options` ask for in this environment; a ConfigError when the environment cannot provide it. */
export function createRateLimitStore(options: Pick<RateLimitOptions, 'store' | 'redisTimeoutMs'>, where: string, env: NodeJS.ProcessEnv): RateLimitStore {
  const redisUrl = env.REDIS_URL || undefined;
  const clusterText = env.REDIS_CLUSTER_NODES || undefined;
  const kind = options.store === 'auto' ? (redisUrl || clusterText ? 'redis' : 'memory') : options.store;
  if (kind === 'memory') return new MemoryStore();
  if (!redisUrl && !clusterText) throw new ConfigError(`${where}.store is "redis" but neither REDIS_URL nor REDIS_CLUSTER_NODES is set`);
  if (redisUrl && clusterText) throw new ConfigError('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  let clusterNodes;
  try {
    clusterNodes = clusterText === undefined ? undefined : parseClusterNodes(clusterText);
  } catch (error) {
    throw new ConfigError(`REDIS_CLUSTER_NODES: ${(error as Error).message}`);
  }
  return new RedisStore({ url: redisUrl, clusterNodes, commandTimeoutMs: options.redisTimeoutMs });
}

/** The limit's headers and refusals, under their configured names, for the API's description. */
function describeRateLimit({ headers: names, hourlyLimit, failOpen }: RateLimitOptions): ApiDescription {
  const retryAfter: DescribedHeader = { name: names.retryAfter, description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } };
  const remaining: DescribedHeader = { name: names.remaining, description: 'Requests left in the current hour.', schema: { type: 'integer', minimum: 0 } };
  const reset: DescribedHeader = { name: names.reset, description: 'When the current hour’s count starts again, in Unix seconds.', schema: { type: 'integer' } };
  const counted = 'Sent once the request is counted against the limit (not on 401, 404 for an unknown path, or 405; not while the count cannot be read).';
  return {
    responses: [
      { status: 429, description: `The hourly limit is used up; try again after the seconds in ${names.retryAfter}.`, headers: [retryAfter, remaining, reset] },
      ...(failOpen ? [] : [{ status: 503, description: 'The rate limit cannot be counted right now; try again shortly.', headers: [retryAfter] }]),
    ],
    headers: [
      { name: names.limit, description: 'Requests allowed per hour: the key’s own limit once the key is known, else the default.', schema: { type: 'integer', minimum: 1 }, always: true },
      { ...remaining, description: `${remaining.description} ${counted}`, always: false },
      { ...reset, description: `${reset.description} ${counted}`, always: false },
    ],
    overview: [
      `**Rate limits.** ${hourlyLimit} requests per hour per key by default (a key may have its own limit), in windows aligned to the hour. Every response says the limit in \`${names.limit}\`; once a request is counted it also carries \`${names.remaining}\` and \`${names.reset}\` (Unix seconds). Beyond the limit: 429 with \`${names.retryAfter}\` (seconds).`,
    ],
  };
}

export const useRateLimit: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(rateLimitOptions, rawOptions, where);
  const names = options.headers;
  const announced = String(options.hourlyLimit);
  // Made now, so a store the environment cannot provide stops the start; a Redis store only
  // connects when the gateway starts (`mesh build` loads plugins without serving anything).
  const store = createRateLimitStore(options, formatPath(where), services.env);
  const limiter = new RateLimiter({ store, failOpen: options.failOpen, warn: (message) => logger.warn({ msg: message }) });

  const apply = (exchange: Exchange, decision: RateLimitDecision, anonymous: boolean) => {
    const headers = exchange.responseHeaders;
    headers[names.limit] = String(decision.limit);
    if (decision.remaining !== undefined) headers[names.remaining] = String(decision.remaining);
    if (decision.resetAt !== undefined) headers[names.reset] = String(decision.resetAt);
    if (decision.retryAfter !== undefined) headers[names.retryAfter] = String(decision.retryAfter);
    if (decision.storeFailed) services.metrics.rateLimitStoreFailure();
    if (decision.allowed) return undefined;
    if (decision.storeFailed) return errorResponse(503, 'Rate limiting is unavailable; try again shortly');
    services.metrics.rateLimitRejection(anonymous ? 'anonymous' : 'key');
    return errorResponse(429, `Rate limit exceeded: ${decision.limit} requests per hour. Try again in ${decision.retryAfter} seconds.`);
  };

  return {
    name: 'rate-limit',
    stages: {
      /** Responses that never reach the limiter (404, 405, 401) still say the limit in force. */
      start(exchange) {
        exchange.responseHeaders[names.limit] = announced;
        return undefined;
      },
      /** Synchronous with the memory store; a promise with Redis. */
      limit(exchange) {
        if (!exchange.caller) return undefined; // a public path
        const { key } = exchange.caller;
        return whenReady(
          () => (key ? limiter.check(`key:${key.publicId}`, key.hourlyLimit ?? options.hourlyLimit) : limiter.check(`ip:${exchange.ip}`, options.anonymousHourlyLimit)),
          (decision) => apply(exchange, decision, !key),
        );
      },
    },
    describes: describeRateLimit(options),
    async start(timeoutMs) {
      if (!(await store.connect(timeoutMs))) logger.warn({ msg: `rate limit store "${store.name}" not reachable yet; retrying in the background` });
    },
    readiness: store.name === 'memory' ? {} : { [store.name]: () => store.ping() },
    close: () => store.close(),
  };
};
