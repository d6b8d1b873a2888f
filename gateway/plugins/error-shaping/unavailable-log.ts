// Requests answered 503 because the database could not answer, summed up in the log: one short
// line when a reason (unreachable, timeout, busy) first shows, then at most one per
// `intervalMs` with how many requests it failed meanwhile. An outage fails every request alike,
// hundreds a second; a stack trace each (1.65 KB) said nothing new and flooded the log. The full
// error is logged once per outage where it is found (prisma/query-guard.ts); each request keeps
// its access-log line with status 503.
import { logger } from '../../../lib/logger.ts';
import type { DatabaseUnavailableError, UnavailableReason } from '../../../prisma/unavailable.ts';
import type { Exchange } from '../../pipeline/exchange.ts';

export class UnavailableLog {
  /** Per reason being summed up: requests since its last line. */
  private readonly windows = new Map<UnavailableReason, { count: number }>();

  constructor(private readonly intervalMs = 10_000) {}

  report(error: DatabaseUnavailableError, exchange: Pick<Exchange, 'requestId' | 'method' | 'path'>): void {
    const window = this.windows.get(error.reason);
    if (window) {
      window.count++;
      return;
    }
    logger.warn({
      msg: 'database unavailable: answering 503',
      reason: error.reason,
      error: error.rootCause.message,
      requestId: exchange.requestId,
      method: exchange.method,
      path: exchange.path,
    });
    this.open(error.reason);
  }

  private open(reason: UnavailableReason): void {
    this.windows.set(reason, { count: 0 });
    setTimeout(() => this.close(reason), this.intervalMs).unref();
  }

  /** The window's line, if it counted any; a reason that keeps failing gets a new window. */
  private close(reason: UnavailableReason): void {
    const count = this.windows.get(reason)?.count ?? 0;
    this.windows.delete(reason);
    if (count === 0) return;
    logger.warn({ msg: `database unavailable: answered 503 to ${count} more requests in ${this.intervalMs / 1000} s`, reason, requests: count });
    this.open(reason);
  }
}
