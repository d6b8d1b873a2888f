import { z } from 'zod';
import { rateLimitHeaders, redisTimeoutMs, storeKind } from '../rate-limit/options.ts';
import { addressList } from '../address-list.ts';

export const authThrottleOptions = z
  .object({
    /** Failed authentications (401s) from one client address per window; beyond them the address is answered 429. @default 20 */
    limit: z.number().int().positive().default(20),
    /** The window in seconds (fixed, aligned like the rate limits' hours). @default 60 */
    windowSeconds: z.number().int().min(1).max(86_400).default(60),
    store: storeKind,
    redisTimeoutMs,
    /**
     * Client addresses or CIDR blocks (IPv4 or IPv6) whose failures are neither counted nor
     * refused: a conformance fuzzer's or a probe's, which send bad keys on purpose. @default []
     */
    exemptAddresses: addressList.default([]),
    /** The names of the limit headers on its 429s (rate-limit's, by default). */
    headers: rateLimitHeaders,
  })
  .strict();

export type AuthThrottleOptions = z.infer<typeof authThrottleOptions>;
