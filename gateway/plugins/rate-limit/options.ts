import { z } from 'zod';
import { addressList } from '../address-list.ts';
import { headerName } from '../options.ts';

const DEFAULT_HEADERS = { limit: 'X-RateLimit-Limit', remaining: 'X-RateLimit-Remaining', reset: 'X-RateLimit-Reset', retryAfter: 'Retry-After' } as const;

/** The names of the limit headers (shared with auth-throttle, whose 429s carry them too). */
export const rateLimitHeaders = z
  .object({
    limit: headerName.default(DEFAULT_HEADERS.limit),
    remaining: headerName.default(DEFAULT_HEADERS.remaining),
    reset: headerName.default(DEFAULT_HEADERS.reset),
    retryAfter: headerName.default(DEFAULT_HEADERS.retryAfter),
  })
  .strict()
  .default(DEFAULT_HEADERS);

/** memory: this process only; redis: REDIS_URL or REDIS_CLUSTER_NODES, shared; auto: redis when either is set. @default "auto" */
export const storeKind = z.enum(['auto', 'memory', 'redis']).default('auto');

/** How long Redis may stay silent while a request waits for it, in ms; while Redis is known to be down, requests do not wait. @default 200 */
export const redisTimeoutMs = z.number().int().min(10).max(5000).default(200);

export const rateLimitOptions = z
  .object({
    /** Requests per hour per API key, unless the key has its own limit. @default 1000 */
    hourlyLimit: z.number().int().positive().default(1000),
    /** Requests per hour per IP address shared by anonymous callers (when allowed). @default 60 */
    anonymousHourlyLimit: z.number().int().positive().default(60),
    /**
     * Anonymous limits of their own for some client addresses (a load generator's, a partner's
     * proxy): each entry's addresses or CIDR blocks get its hourlyLimit instead of
     * anonymousHourlyLimit, which may be higher than hourlyLimit; the first entry that holds the
     * address wins. Each address is still counted on its own. @default []
     */
    anonymousAddressLimits: z
      .array(z.object({ addresses: addressList.min(1), hourlyLimit: z.number().int().positive() }).strict())
      .default([]),
    store: storeKind,
    /** Let requests through uncounted (true) or refuse them with 503 (false) while Redis cannot count them. @default true */
    failOpen: z.boolean().default(true),
    redisTimeoutMs,
    headers: rateLimitHeaders,
  })
  .strict()
  .refine((options) => options.anonymousHourlyLimit <= options.hourlyLimit, {
    path: ['anonymousHourlyLimit'],
    message: 'must not exceed hourlyLimit (anonymous callers share a lower limit)',
  });

export type RateLimitOptions = z.infer<typeof rateLimitOptions>;
