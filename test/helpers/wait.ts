// Waiting on a condition instead of a clock: a test that polls until what it waits for has
// happened (with a deadline generous enough for a loaded machine) neither flakes when the
// machine is slow nor wastes time when it is fast.

/**
 * Calls `attempt` every `intervalMs` until `done` accepts its value or `timeoutMs` has passed,
 * and returns the last value: the test asserts on it, so a timeout fails with what was seen.
 */
export async function pollUntil<T>(attempt: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 15_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await attempt();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await attempt();
  }
  return value;
}

/** Resolves once `check` holds; rejects naming `what` when it did not within `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, { timeoutMs = 15_000, intervalMs = 20 } = {}): Promise<void> {
  const held = await pollUntil(async () => check(), (ok) => ok, { timeoutMs, intervalMs });
  if (!held) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
