// Rate limits per API key (1,000 an hour by default; a key's own limit from the database wins)
// and per IP address for anonymous callers, with their headers on every response, errors
// included: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), and Retry-After on 429. The
// counters live in this process (store: memory) or in Redis (store: redis, REDIS_URL), where
// every process and host sharing it sees one exact count. If Redis cannot be reached the
// request proceeds with a logged warning (failOpen: true) or is refused with 503.
import type { Plugin } from 'graphql-yoga';
import { z } from 'zod';
import { ConfigError } from '../../lib/config-validation.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { errorResponse, pipeline } from '../pipeline/pipeline.ts';
import { usePipelineInYoga } from '../pipeline/yoga-bridge.ts';
import { RateLimiter, type RateLimitDecision } from '../rate-limit/limiter.ts';
import { MemoryStore } from '../rate-limit/memory-store.ts';
import { parseClusterNodes, RedisStore } from '../rate-limit/redis-store.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import { processSingleton } from '../../lib/process-singleton.ts';
import { logger } from '../../lib/logger.ts';
import { metrics } from '../observability/metrics.ts';
import { parsePluginOptions } from './plugin-options.ts';

const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name');

export const rateLimitOptions = z
  .object({
    /** Requests per hour per API key, unless the key has its own limit. @default 1000 */
    hourlyLimit: z.number().int().positive().default(1000),
    /** Requests per hour per IP address shared by anonymous callers (when allowed). @default 60 */
    anonymousHourlyLimit: z.number().int().positive().default(60),
    /** memory: this process only; redis: REDIS_URL or REDIS_CLUSTER_NODES, shared; auto: redis when either is set. @default "auto" */
    store: z.enum(['auto', 'memory', 'redis']).default('auto'),
    /** Let requests through (true) or refuse them with 503 (false) while Redis cannot be reached. @default true */
    failOpen: z.boolean().default(true),
    /** Longest wait for Redis per request, in ms. @default 200 */
    redisTimeoutMs: z.number().int().min(10).max(5000).default(200),
    headers: z
      .object({
        limit: headerName.default('X-RateLimit-Limit'),
        remaining: headerName.default('X-RateLimit-Remaining'),
        reset: headerName.default('X-RateLimit-Reset'),
        retryAfter: headerName.default('Retry-After'),
      })
      .strict()
      .default({ limit: 'X-RateLimit-Limit', remaining: 'X-RateLimit-Remaining', reset: 'X-RateLimit-Reset', retryAfter: 'Retry-After' }),
  })
  .strict()
  .refine((options) => options.anonymousHourlyLimit <= options.hourlyLimit, {
    path: ['anonymousHourlyLimit'],
    message: 'must not exceed hourlyLimit (anonymous callers share a lower limit)',
  });

export type RateLimitOptions = z.infer<typeof rateLimitOptions>;
export const PLUGIN_NAME = '@icon-catalogue/gateway/rate-limit';

const shared = processSingleton('rate-limit-store', () => ({ store: undefined as RateLimitStore | undefined }));

/** The process's store, made on first use (Mesh builds plugins without serving anything). */
export function rateLimitStore(options: Pick<RateLimitOptions, 'store' | 'redisTimeoutMs'>, env = process.env): RateLimitStore {
  if (shared.store) return shared.store;
  const redisUrl = env.REDIS_URL || undefined;
  const clusterText = env.REDIS_CLUSTER_NODES || undefined;
  const kind = options.store === 'auto' ? (redisUrl || clusterText ? 'redis' : 'memory') : options.store;
  if (kind === 'memory') return (shared.store = new MemoryStore());
  if (!redisUrl && !clusterText) throw new ConfigError(`plugins.${PLUGIN_NAME}.store is "redis" but neither REDIS_URL nor REDIS_CLUSTER_NODES is set`);
  if (redisUrl && clusterText) throw new ConfigError('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  let clusterNodes;
  try {
    clusterNodes = clusterText === undefined ? undefined : parseClusterNodes(clusterText);
  } catch (error) {
    throw new ConfigError(`REDIS_CLUSTER_NODES: ${(error as Error).message}`);
  }
  shared.store = new RedisStore({ url: redisUrl, clusterNodes, commandTimeoutMs: options.redisTimeoutMs });
  return shared.store;
}

export function currentRateLimitStore(): RateLimitStore | undefined {
  return shared.store;
}

export function createRateLimitStages(options: RateLimitOptions) {
  const names = options.headers;
  const announced = String(options.hourlyLimit);
  let limiter: RateLimiter | undefined;
  const apply = (exchange: Exchange, decision: RateLimitDecision, anonymous: boolean) => {
    exchange.limit = decision;
    const headers = exchange.responseHeaders;
    headers[names.limit] = String(decision.limit);
    if (decision.remaining !== undefined) headers[names.remaining] = String(decision.remaining);
    if (decision.resetAt !== undefined) headers[names.reset] = String(decision.resetAt);
    if (decision.retryAfter !== undefined) headers[names.retryAfter] = String(decision.retryAfter);
    if (decision.storeFailed) metrics.rateLimitStoreFailure();
    if (decision.allowed) return undefined;
    if (decision.storeFailed) return errorResponse(503, 'Rate limiting is unavailable; try again shortly');
    metrics.rateLimitRejection(anonymous ? 'anonymous' : 'key');
    return errorResponse(429, `Rate limit exceeded: ${decision.limit} requests per hour. Try again in ${decision.retryAfter} seconds.`);
  };
  return {
    /** Responses that never reach the limiter (404, 405, 401) still say the limit in force. */
    announce(exchange: Exchange) {
      exchange.responseHeaders[names.limit] = announced;
      return undefined;
    },
    /** Synchronous with the memory store; a promise with Redis. */
    limit(exchange: Exchange) {
      if (!exchange.caller) return undefined; // a public path
      limiter ??= new RateLimiter({ store: rateLimitStore(options), failOpen: options.failOpen, warn: (message) => logger.warn({ msg: message }) });
      const { key } = exchange.caller;
      const decision = key
        ? limiter.check(`key:${key.publicId}`, key.hourlyLimit ?? options.hourlyLimit)
        : limiter.check(`ip:${exchange.ip}`, options.anonymousHourlyLimit);
      return decision instanceof Promise ? decision.then((made) => apply(exchange, made, !key)) : apply(exchange, decision, !key);
    },
  };
}

export default function useRateLimit(rawOptions: Record<string, unknown> = {}): Plugin {
  const options = parsePluginOptions(rateLimitOptions, PLUGIN_NAME, rawOptions);
  const stages = createRateLimitStages(options);
  pipeline.register('start', 'rate-limit-announce', stages.announce);
  pipeline.register('limit', 'rate-limit', stages.limit);
  rateLimitStore(options); // validates store vs REDIS_URL now; a Redis store connects on first use
  return usePipelineInYoga();
}
