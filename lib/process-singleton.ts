// One value per process, even when a module is loaded more than once: `mesh dev` and
// `mesh start` load our plugins through their own module loader (jiti) beside Node's, which
// gives each loader its own copy of a module's top-level state. The value lives on globalThis.
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`icon-catalogue:${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[key] ??= create());
}
