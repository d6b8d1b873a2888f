// Rate limits per API key (1,000 an hour by default; a key's own limit from the database wins)
// and per IP address for anonymous callers, with their headers on every response, errors
// included: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), and Retry-After on 429. The
// counters live in this process (store: memory) or in Redis (store: redis, REDIS_URL), where
// every process and host sharing it sees one exact count, in windows of Redis's clock. If Redis
// cannot count a request, it proceeds uncounted (failOpen: true) or is refused with 503; both are
// counted in icon_gateway_rate_limit_store_failures_total and warned about once a minute at most.
import { whenReady } from '../../../lib/maybe-promise.ts';
import { formatPath } from '../../../lib/config-validation.ts';
import { logger } from '../../../lib/logger.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { createCounterStore } from './create-store.ts';
import { RateLimiter, type RateLimitDecision } from './limiter.ts';
import { rateLimitOptions } from './options.ts';

export const useRateLimit: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(rateLimitOptions, rawOptions, where);
  const names = options.headers;
  const announced = String(options.hourlyLimit);
  // Made now, so a store the environment cannot provide stops the start; a Redis store only
  // connects when the gateway starts (`mesh build` loads plugins without serving anything).
  const store = createCounterStore(options, { plugin: 'rate-limit', where: formatPath(where), keyPrefix: 'icon-catalogue:ratelimit:', services });
  const limiter = new RateLimiter({ store, failOpen: options.failOpen, warn: (message) => logger.warn({ msg: message }) });

  const apply = (exchange: Exchange, decision: RateLimitDecision, anonymous: boolean) => {
    const headers = exchange.responseHeaders;
    headers[names.limit] = String(decision.limit);
    if (decision.remaining !== undefined) headers[names.remaining] = String(decision.remaining);
    if (decision.resetAt !== undefined) headers[names.reset] = String(decision.resetAt);
    if (decision.retryAfter !== undefined) headers[names.retryAfter] = String(decision.retryAfter);
    if (decision.storeFailed) services.metrics.rateLimitStoreFailure(decision.allowed ? 'allowed' : 'refused');
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
    describes: {
      responseHeaders: { [names.limit]: { description: 'Requests allowed per hour for this key.', schema: { type: 'integer' } } },
    },
    /** A Redis not reachable yet counts as down (logged once) and is probed in the background. */
    async start(timeoutMs) {
      await store.connect(timeoutMs);
    },
    readiness: store.name === 'memory' ? {} : { [store.name]: () => store.ping() },
    close: () => store.close(),
  };
};
