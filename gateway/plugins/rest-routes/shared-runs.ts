// Concurrent misses of one cacheable response share its execution: a burst for one response costs
// one execution, not one each. The key holds everything the response depends on, the caller's
// account included, as the response cache itself relies on (response-cache.ts).
export class SharedRuns<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, execute: () => Promise<T>): Promise<T> {
    let pending = this.running.get(key);
    if (!pending) {
      pending = execute().finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return pending;
  }
}
