// The rate-limit policy over a store: counts a request against its caller's limit and says
// whether it may proceed, with what to put in the X-RateLimit-* headers. When the store cannot
// count it, the request proceeds uncounted (fail open) or is refused with 503 (fail closed), as
// configured; such requests are reported in one warning a minute at most, with how many there
// were, never one line per request.
import { whenReady } from '../../../lib/maybe-promise.ts';
import type { RateLimitStore, WindowCount } from './store.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window; undefined when the store could not count. */
  remaining?: number;
  /** Requests counted in the window, this one included; undefined when the store could not count. */
  count?: number;
  /** Unix time (seconds) when the window resets, on the store's clock; undefined when the store could not count. */
  resetAt?: number;
  /** Seconds until the caller may retry (refusals only). */
  retryAfter?: number;
  /** The store could not count; `allowed` then follows the fail-open setting. */
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

/** Warnings about a failing store: at most one in this many ms. */
const WARNING_INTERVAL_MS = 60_000;

export class RateLimiter {
  readonly store: RateLimitStore;
  readonly windowMs: number;
  private readonly failOpen: boolean;
  private readonly clock: () => number;
  private readonly warn: (message: string) => void;
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  /** Requests the store could not count since the last warning. */
  private uncounted = 0;

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
    return whenReady(
      () => this.store.hit(key, this.windowMs, this.clock()),
      (counted) => decide(counted, limit),
      (error: unknown) => this.storeFailure(error, limit),
    );
  }

  private storeFailure(error: unknown, limit: number): RateLimitDecision {
    this.uncounted++;
    const now = performance.now();
    if (now - this.lastWarningAt >= WARNING_INTERVAL_MS) {
      this.lastWarningAt = now;
      const outcome = this.failOpen ? 'let through uncounted (failOpen: true)' : 'refused with 503 (failOpen: false)';
      this.warn(`rate limit store "${this.store.name}" could not count (${(error as Error).message}): ${this.uncounted} request(s) ${outcome} since the last warning; at most one such warning a minute`);
      this.uncounted = 0;
    }
    return { allowed: this.failOpen, limit, storeFailed: true, retryAfter: this.failOpen ? undefined : 1 };
  }
}

function decide(counted: WindowCount, limit: number): RateLimitDecision {
  const allowed = counted.count <= limit;
  return {
    allowed,
    limit,
    count: counted.count,
    remaining: Math.max(0, limit - counted.count),
    resetAt: Math.ceil(counted.resetAt / 1000),
    retryAfter: allowed ? undefined : Math.max(1, Math.ceil(counted.resetsIn / 1000)),
  };
}
