import { z } from 'zod';
import { headerName } from '../options.ts';

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
