// Counters in this process's memory, on the clock the limiter is given: exact for one process,
// meaningless across several (use the Redis store there). Expired windows are swept as new ones
// start.
import { windowOf, type RateLimitStore, type WindowCount } from './store.ts';

interface Counter {
  count: number;
  resetAt: number;
}

export class MemoryStore implements RateLimitStore {
  readonly name = 'memory';
  private readonly counters = new Map<string, Counter>();
  private lastSweep = 0;

  hit(key: string, windowMs: number, now: number): WindowCount {
    this.sweep(now);
    const { end } = windowOf(now, windowMs);
    let counter = this.counters.get(key);
    // A counter of another window (an earlier one, or a later one if the clock went back) starts over.
    if (counter?.resetAt !== end) {
      counter = { count: 0, resetAt: end };
      this.counters.set(key, counter);
    }
    counter.count++;
    return { count: counter.count, resetAt: end, resetsIn: end - now };
  }

  private sweep(now: number): void {
    if (Math.abs(now - this.lastSweep) < 60_000) return;
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
