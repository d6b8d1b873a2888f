// The rate-limit policy over a store: counts a request against its caller's limit and says
// whether it may proceed, with what to put in the X-RateLimit-* headers. When the store cannot
// be reached it fails open (the request proceeds, a warning is logged at most once a minute)
// or closed (the request is refused with 503), as configured.
import type { RateLimitStore } from './store.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window; undefined when the store could not be reached. */
  remaining?: number;
  /** Unix time (seconds) when the window resets; undefined when the store could not be reached. */
  resetAt?: number;
  /** Seconds until the caller may retry (refusals only). */
  retryAfter?: number;
  /** The store failed; `allowed` then follows the fail-open setting. */
  storeFailed?: boolean;
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  /** @default 3_600_000 (one hour) */
  windowMs?: number;
  /** @default true */
  failOpen?: boolean;
  warn?: (message: string) => void;
}

export class RateLimiter {
  readonly store: RateLimitStore;
  readonly windowMs: number;
  private readonly failOpen: boolean;
  private readonly warn: (message: string) => void;
  private lastWarning = 0;

  constructor({ store, windowMs = 3_600_000, failOpen = true, warn = (message) => console.warn(message) }: RateLimiterOptions) {
    this.store = store;
    this.windowMs = windowMs;
    this.failOpen = failOpen;
    this.warn = warn;
  }

  async check(key: string, limit: number, now = Date.now()): Promise<RateLimitDecision> {
    let counted;
    try {
      counted = await this.store.hit(key, this.windowMs, now);
    } catch (error) {
      if (now - this.lastWarning > 60_000) {
        this.lastWarning = now;
        this.warn(
          `rate limit store "${this.store.name}" unreachable (${(error as Error).message}); ` +
            (this.failOpen ? 'letting requests through (failOpen: true)' : 'refusing requests (failOpen: false)'),
        );
      }
      return { allowed: this.failOpen, limit, storeFailed: true, ...(this.failOpen ? {} : { retryAfter: 1 }) };
    }
    const resetAt = Math.ceil(counted.resetAt / 1000);
    const allowed = counted.count <= limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted.count),
      resetAt,
      ...(allowed ? {} : { retryAfter: Math.max(1, Math.ceil((counted.resetAt - now) / 1000)) }),
    };
  }
}
