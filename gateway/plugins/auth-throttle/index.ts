// Failed authentication, throttled per client address. Without it a client could present bad
// keys as fast as the gateway answers (1,660 a second from one address, each unknown key id a
// database lookup). Every 401 counts as a failure; once an address has failed `limit` times in a
// window, its requests are answered 429 before any key is looked at, until the window ends, with
// the limit headers and Retry-After. A valid key from that address is refused too: this plugin
// cannot tell it from another guess without the lookup it exists to avoid. Only what
// authentication guards is refused (issue 45, item 3): a request that shows no key where none is
// needed (the public document, free icons' files) costs no lookup and is served as ever.
// Addresses in `exemptAddresses` (a fuzzer's, a probe's) are never counted nor refused.
//
// The count is kept in the same kind of store as the rate limits (Redis when configured: one
// count across processes and hosts; else this process's memory). A process learns that an
// address reached the limit from the count its own failure returns, and remembers it until the
// window ends, so a throttled request costs a map lookup: no database, no Redis. Across processes
// the failures an address gets looked up are the limit, plus one more per other process, plus
// those already in flight when the limit is reached. While Redis is down, failures are not
// counted (the store's outage is logged and in icon_gateway_redis_up).
//
// List it before api-key-auth: stages of one phase run in the listed order (the gateway's config
// validation says so if not). Addresses are the exchange's, so the gateway's `trustedProxies`
// decides whether X-Forwarded-For is believed; IPv6 clients are counted per /64.
import { LRUCache } from 'lru-cache';
import { formatPath } from '../../../lib/config-validation.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { ApiDescription, GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { createCounterStore } from '../rate-limit/create-store.ts';
import { describedLimitHeaders } from '../rate-limit/described-headers.ts';
import { addressKey } from '../../pipeline/address-key.ts';
import { addressMatcher } from '../address-list.ts';
import { authThrottleOptions, type AuthThrottleOptions } from './options.ts';

/** Throttled addresses a process remembers at most (each until its window ends). */
const MAX_THROTTLED = 100_000;

/** Its 429 and what it means, under the configured header names, for the API's description. */
function describeAuthThrottle(limit: number, windowSeconds: number, names: AuthThrottleOptions['headers']): ApiDescription {
  const { retryAfter, remaining, reset } = describedLimitHeaders(names);
  return {
    responses: [{ status: 429, description: `Too many failed authentications from the client’s address (${limit} in ${windowSeconds} s); its requests are refused until the window ends.`, headers: [retryAfter, remaining, reset] }],
    overview: [`**Failed authentication.** After ${limit} failed authentications (401) from one address in ${windowSeconds} seconds, its requests get 429 with \`${names.retryAfter}\` until the window ends.`],
  };
}

export const useAuthThrottle: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { limit, windowSeconds, headers: names, exemptAddresses, ...storeChoice } = parsePluginOptions(authThrottleOptions, rawOptions, where);
  const exempt = addressMatcher(exemptAddresses);
  const windowMs = windowSeconds * 1000;
  const store = createCounterStore(storeChoice, { plugin: 'auth-throttle', where: formatPath(where), keyPrefix: 'icon-catalogue:authfail:', services });
  /** Address key -> the window's end (Unix seconds); each entry lives until then, a config reload included. */
  const throttled = services.keep('auth-throttle:throttled', null, () => new LRUCache<string, number>({ max: MAX_THROTTLED }));

  const refuse = (exchange: Exchange, key: string, resetAt: number) => {
    const retryAfter = Math.max(1, Math.ceil(throttled.getRemainingTTL(key) / 1000));
    const headers = exchange.responseHeaders;
    headers[names.limit] = String(limit);
    headers[names.remaining] = '0';
    headers[names.reset] = String(resetAt);
    headers[names.retryAfter] = String(retryAfter);
    services.metrics.authThrottle();
    return errorResponse(429, `Too many failed authentications from this address: ${limit} in ${windowSeconds} seconds. Try again in ${retryAfter} seconds.`);
  };

  const countFailure = async (key: string) => {
    const counted = await store.hit(key, windowMs, Date.now());
    if (counted.count >= limit && counted.resetsIn > 0) throttled.set(key, Math.ceil(counted.resetAt / 1000), { ttl: counted.resetsIn });
  };

  return {
    name: 'auth-throttle',
    stages: {
      auth(exchange) {
        if (throttled.size === 0) return undefined;
        const key = addressKey(exchange.ip);
        const resetAt = throttled.get(key);
        return resetAt === undefined || !services.guarded(exchange) ? undefined : refuse(exchange, key, resetAt);
      },
    },
    onComplete(exchange, status) {
      if (status !== 401) return;
      services.metrics.authFailure();
      if (exempt(exchange.ip)) return;
      // Not counted while the store cannot count (its outage is logged once by the store).
      countFailure(addressKey(exchange.ip)).catch(() => {});
    },
    describes: describeAuthThrottle(limit, windowSeconds, names),
    async start(timeoutMs) {
      await store.connect(timeoutMs);
    },
  };
};
