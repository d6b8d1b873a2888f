// A rate-limit store counts requests per key in fixed windows. `hit` counts one request and
// says where the key stands, atomically: two requests never read the same count.
export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends (ms since the epoch), on the store's clock. */
  resetAt: number;
  /** How long until then (ms): what Retry-After is made of, whatever the gateway's own clock says. */
  resetsIn: number;
}

export interface RateLimitStore {
  readonly name: string;
  /**
   * Counts one request of `key` in the window of `windowMs` the store's clock is in: `now` for a
   * store in this process, the server's own clock for Redis. Synchronous when the store is in
   * this process, so the hot path pays no promise.
   */
  hit(key: string, windowMs: number, now: number): WindowCount | Promise<WindowCount>;
  /** Connects (if the store has a server), waiting at most `timeoutMs`; false when it could not. */
  connect(timeoutMs?: number): Promise<boolean>;
  /** Whether the store can be reached (for readiness checks). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The window a moment falls in; windows are aligned to the epoch, so every process agrees. */
export function windowOf(now: number, windowMs: number): { start: number; end: number } {
  const start = now - (now % windowMs);
  return { start, end: start + windowMs };
}
