// Counters in this process's memory: exact for one process, meaningless across several (use
// the Redis store there). Expired windows are swept as new ones start.
import { windowOf, type RateLimitStore, type WindowCount } from './store.ts';

export class MemoryStore implements RateLimitStore {
  readonly name = 'memory';
  private readonly counters = new Map<string, WindowCount>();
  private lastSweep = 0;

  hit(key: string, windowMs: number, now = Date.now()): WindowCount {
    this.sweep(now);
    const current = this.counters.get(key);
    if (current && current.resetAt > now) {
      current.count++;
      return { count: current.count, resetAt: current.resetAt };
    }
    const fresh = { count: 1, resetAt: windowOf(now, windowMs).end };
    this.counters.set(key, fresh);
    return { count: 1, resetAt: fresh.resetAt };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }

  async connect(): Promise<boolean> {
    return true;
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
