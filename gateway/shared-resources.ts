// What one gateway hands on to the next one built in the same process (a config reload,
// docs/reload.md): the rate-limit counters, the failed-auth throttle, the downloads not yet
// written, Redis connections, the metrics, the response cache. A plugin asks for such a thing
// by key with the settings it is made from; a gateway built while another holds the same key
// with equal settings gets the very same value, else a new one. Each gateway holds what it got
// through a lease; a value is disposed once no gateway holds it any more, so the old gateway
// closing after a reload leaves alone whatever the new one kept, and a gateway alone in its
// process (tests, `mesh dev`) closes everything it made, as before.

export interface SharedResources {
  /**
   * The value kept under `key` if some gateway holds one made with equal `settings` (compared
   * as JSON, key order aside); else `create()`'s. `dispose` runs once no gateway holds it.
   */
  keep<T>(key: string, settings: unknown, create: () => T, dispose?: (value: T) => unknown): T;
}

interface Entry {
  key: string;
  settings: string;
  value: unknown;
  dispose?: (value: unknown) => unknown;
  holders: number;
}

/** JSON with object keys sorted, so that settings read in another order still compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

export class ResourcePool {
  private readonly entries = new Map<string, Entry[]>();

  /** What one gateway holds: `release()` when it closes (or fails to build). */
  lease(): SharedResources & { release(): Promise<void> } {
    const held: Entry[] = [];
    let released = false;
    return {
      keep: <T>(key: string, settings: unknown, create: () => T, dispose?: (value: T) => unknown): T => {
        if (released) throw new Error(`a released lease asked for ${key}`);
        const text = stableJson(settings ?? null);
        const list = this.entries.get(key) ?? [];
        let entry = list.find((candidate) => candidate.settings === text);
        if (!entry) {
          entry = { key, settings: text, value: create(), dispose: dispose as Entry['dispose'], holders: 0 };
          list.push(entry);
          this.entries.set(key, list);
        }
        if (!held.includes(entry)) {
          entry.holders++;
          held.push(entry);
        }
        return entry.value as T;
      },
      release: async () => {
        if (released) return;
        released = true;
        // Last taken, first disposed: the metrics, taken first, outlive the stores that report to them.
        for (const entry of held.reverse()) {
          if (--entry.holders > 0) continue;
          const list = this.entries.get(entry.key) ?? [];
          list.splice(list.indexOf(entry), 1);
          if (list.length === 0) this.entries.delete(entry.key);
          await entry.dispose?.(entry.value);
        }
      },
    };
  }

  /** How many gateways hold `key`'s values (for tests and the reload's log line). */
  holders(key: string): number {
    return (this.entries.get(key) ?? []).reduce((sum, entry) => sum + entry.holders, 0);
  }
}
