// How long to wait for Redis, counted so that a busy event loop is not blamed on Redis. When the
// gateway's own loop is late (a burst of requests, a long synchronous task), a timer fires late
// and the reply may already sit unread in the socket: failing the wait then would let a request
// through uncounted (fail open) although Redis counted it. So a timer that fired late is renewed,
// a few times at most; a stalled Redis on a healthy loop still fails after `ms`.

/** How late a timer may fire, as a share of its delay, before the loop counts as busy. */
const LATE_SHARE = 0.25;

export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** `work`'s outcome, or a DeadlineError once `ms` of waiting passed on a loop that was not late (renewed at most `renewals` times). */
export function answerWithin<T>(work: Promise<T>, ms: number, renewals = 4): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let left = renewals;
    const arm = () => {
      const armedAt = performance.now();
      timer = setTimeout(() => {
        const late = performance.now() - armedAt - ms;
        if (late > ms * LATE_SHARE && left-- > 0) return arm();
        reject(new DeadlineError(`no answer within ${ms} ms`));
      }, ms);
    };
    arm();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
