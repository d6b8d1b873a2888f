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
import type { ApiDescription, GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { addressMatcher } from '../address-list.ts';
import { parsePluginOptions } from '../options.ts';
import { createCounterStore } from './create-store.ts';
import { describedLimitHeaders } from './described-headers.ts';
import { RateLimiter, type RateLimitDecision } from './limiter.ts';
import { rateLimitOptions, type RateLimitOptions } from './options.ts';

/** The limit's headers and refusals, under their configured names, for the API's description. */
function describeRateLimit({ headers: names, hourlyLimit, failOpen }: RateLimitOptions): ApiDescription {
  const { retryAfter, remaining, reset } = describedLimitHeaders(names);
  const counted = 'Sent once the request is counted against the limit (not on 404 for an unknown path; not while the count cannot be read).';
  // Answered before the limit phase counts a request: authentication (401), routing (405), and
  // the HTTP server itself (408, 431). The document declares these headers on none of them.
  const uncounted = [401, 405, 408, 431];
  return {
    responses: [
      { status: 429, description: `The hourly limit is used up; try again after the seconds in ${names.retryAfter}.`, headers: [retryAfter, remaining, reset] },
      ...(failOpen ? [] : [{ status: 503, description: 'The rate limit cannot be counted right now; try again shortly.', headers: [retryAfter] }]),
    ],
    headers: [
      { name: names.limit, description: 'Requests allowed per hour: the key’s own limit once the key is known, else the default.', schema: { type: 'integer', minimum: 1 }, always: true },
      { ...remaining, description: `${remaining.description} ${counted}`, always: false, exceptStatuses: uncounted },
      { ...reset, description: `${reset.description} ${counted}`, always: false, exceptStatuses: uncounted },
    ],
    overview: [
      `**Rate limits.** ${hourlyLimit} requests per hour per key by default (a key may have its own limit), in windows aligned to the hour. Every response says the limit in \`${names.limit}\`; once a request is counted it also carries \`${names.remaining}\` and \`${names.reset}\` (Unix seconds). Beyond the limit: 429 with \`${names.retryAfter}\` (seconds).`,
    ],
  };
}

/** The hourly limit of an anonymous caller's address: its entry's in anonymousAddressLimits, else the default. */
function anonymousLimits({ anonymousHourlyLimit, anonymousAddressLimits }: RateLimitOptions): (address: string) => number {
  if (anonymousAddressLimits.length === 0) return () => anonymousHourlyLimit;
  const entries = anonymousAddressLimits.map(({ addresses, hourlyLimit }) => ({ holds: addressMatcher(addresses), hourlyLimit }));
  return (address) => entries.find((entry) => entry.holds(address))?.hourlyLimit ?? anonymousHourlyLimit;
}

export const useRateLimit: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(rateLimitOptions, rawOptions, where);
  const names = options.headers;
  const announced = String(options.hourlyLimit);
  // Made now, so a store the environment cannot provide stops the start; a Redis store only
  // connects when the gateway starts (`mesh build` loads plugins without serving anything).
  const store = createCounterStore(options, { plugin: 'rate-limit', where: formatPath(where), keyPrefix: 'icon-catalogue:ratelimit:', services });
  const limiter = new RateLimiter({ store, failOpen: options.failOpen, warn: (message) => logger.warn({ msg: message }) });
  const anonymousLimitOf = anonymousLimits(options);

  const apply = (exchange: Exchange, decision: RateLimitDecision, anonymous: boolean) => {
    const headers = exchange.responseHeaders;
    headers[names.limit] = String(decision.limit);
    if (decision.remaining !== undefined) headers[names.remaining] = String(decision.remaining);
    if (decision.resetAt !== undefined) headers[names.reset] = String(decision.resetAt);
    if (decision.retryAfter !== undefined) headers[names.retryAfter] = String(decision.retryAfter);
    const { limit, remaining, resetAt, count } = decision;
    if (remaining !== undefined && resetAt !== undefined && count !== undefined) exchange.rateLimit = { limit, remaining, resetAt, count };
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
          () => (key ? limiter.check(`key:${key.publicId}`, key.hourlyLimit ?? options.hourlyLimit) : limiter.check(`ip:${exchange.ip}`, anonymousLimitOf(exchange.ip))),
          (decision) => apply(exchange, decision, !key),
        );
      },
    },
    describes: describeRateLimit(options),
    /** A Redis not reachable yet counts as down (logged once) and is probed in the background. */
    async start(timeoutMs) {
      await store.connect(timeoutMs);
    },
    readiness: store.name === 'memory' ? {} : { [store.name]: () => store.ping() },
  };
};
