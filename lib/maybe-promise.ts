// The one way this project continues work that may or may not be asynchronous: synchronously
// when the value is already there (the hot path of a cached response pays no promise), after it
// resolves otherwise. Same contract as handleMaybePromise of @whatwg-node/promise-helpers, which
// allocates several promise-like objects per call; see bench/RESULTS.md for the measured cost.

export type MaybePromise<T> = T | Promise<T>;

/**
 * `onValue(work())`, at once when `work` returns a value, when it resolves when it returns a
 * promise. An error `work` throws or rejects with goes to `onError` (rethrown without one);
 * errors of `onValue` are its caller's, as with `then(onValue, onError)`.
 */
export function whenReady<T, R>(work: () => MaybePromise<T>, onValue: (value: T) => MaybePromise<R>, onError?: (error: unknown) => MaybePromise<R>): MaybePromise<R> {
  let value: MaybePromise<T>;
  try {
    value = work();
  } catch (error) {
    if (onError) return onError(error);
    throw error;
  }
  if (value instanceof Promise) return value.then(onValue, onError);
  return onValue(value);
}
