// The rate-limit policy over a store: counts a request against its caller's limit and says
// whether it may proceed, with what to put in the X-RateLimit-* headers. When the store cannot
// be reached it fails open (the request proceeds, a warning is logged at most once a minute)
// or closed (the request is refused with 503), as configured.
import { whenReady } from '../../../lib/maybe-promise.ts';
import type { RateLimitStore, WindowCount } from './store.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window; undefined when the store could not be reached. */
  remaining?: number;
  /** Unix time (seconds) when the window resets, on the store's clock; undefined when the store could not be reached. */
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
  /** The time (ms since the epoch) for a store in this process; Redis keeps its own. @default Date.now */
  clock?: () => number;
  warn?: (message: string) => void;
}

export class RateLimiter {
  readonly store: RateLimitStore;
  readonly windowMs: number;
  private readonly failOpen: boolean;
  private readonly clock: () => number;
  private readonly warn: (message: string) => void;
  private lastWarning = 0;

  constructor({ store, windowMs = 3_600_000, failOpen = true, clock = Date.now, warn = (message) => console.warn(message) }: RateLimiterOptions) {
    this.store = store;
    this.windowMs = windowMs;
    this.failOpen = failOpen;
    this.clock = clock;
    this.warn = warn;
  }

  /**
   * Counts one request of `key`. Synchronous when the store answers synchronously (memory), so
   * the hot path pays no promise; a promise otherwise (Redis).
   */
  check(key: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> {
    const now = this.clock();
    return whenReady(
      () => this.store.hit(key, this.windowMs, now),
      (counted) => this.decide(counted, limit),
      (error: unknown) => this.storeFailure(error, limit, now),
    );
  }

  private decide(counted: WindowCount, limit: number): RateLimitDecision {
    const allowed = counted.count <= limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted.count),
      resetAt: Math.ceil(counted.resetAt / 1000),
      retryAfter: allowed ? undefined : Math.max(1, Math.ceil(counted.resetsIn / 1000)),
    };
  }

  private storeFailure(error: unknown, limit: number, now: number): RateLimitDecision {
    if (now - this.lastWarning > 60_000) {
      this.lastWarning = now;
      this.warn(
        `rate limit store "${this.store.name}" unreachable (${(error as Error).message}); ` +
          (this.failOpen ? 'letting requests through (failOpen: true)' : 'refusing requests (failOpen: false)'),
      );
    }
    return { allowed: this.failOpen, limit, storeFailed: true, retryAfter: this.failOpen ? undefined : 1 };
  }
}
