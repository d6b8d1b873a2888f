// How long to wait for Redis, so that neither a busy event loop nor a queue of commands ahead of
// ours is blamed on Redis. A command fails once Redis has been silent for `ms` since it was
// written (or since Redis last answered, if a pipeline was ahead of it), with this much care:
// - ioredis auto-pipelines: commands issued during a turn of the event loop are written
//   together in a setImmediate, after the turn has read every socket. In a burst that turn can
//   last longer than the deadline; timed from the call, a command written a moment ago was
//   failed. So a batch's clock starts in a setImmediate queued after ioredis's, when it has written.
// - ioredis writes one pipeline at a time per connection: a command issued while another is in
//   flight is written when that one's replies are in, so the clock restarts at each reply.
//   (Timed from each write, ioredis's own commandTimeout made queued commands wait for their
//   predecessors' timeout and then their own: 400 ms for 200 when Redis stalled.)
// - Node runs due timers before it reads sockets: when the loop is late, a deadline timer fires
//   while the reply sits unread. So an expired deadline is decided in setImmediate, after the
//   poll phase has read whatever arrived, and Redis counts as silent only up to the moment the
//   timer fired.

/** Redis sent nothing for the deadline while a command waited. */
export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

export interface ReplyDeadlineOptions {
  /** How long Redis may stay silent while a command waits. */
  ms: number;
  /**
   * Longest wait for one command however busy Redis is otherwise: for a Redis Cluster, whose
   * shards answer independently (another shard's replies say nothing of this command's).
   * @default Infinity (one connection answers in order)
   */
  maxMs?: number;
  /** Whether a failure is Redis's own error reply (Redis is there). @default never */
  isReply?(error: unknown): boolean;
  /** Called with every failure that is not an error reply (a DeadlineError included), before it is thrown. */
  onFailure?(error: unknown): void;
}

/** Waits for commands on one connection (or a cluster's connections, with maxMs). */
export class ReplyDeadline {
  private readonly ms: number;
  private readonly maxMs: number;
  private readonly isReply: (error: unknown) => boolean;
  private readonly onFailure: (error: unknown) => void;
  /** performance.now() of the last reply Redis sent. */
  private lastReplyAt = Number.NEGATIVE_INFINITY;
  /** The commands issued since the last check phase: written together, timed together. */
  private batch: { writtenAt: number } | undefined;

  constructor({ ms, maxMs = Number.POSITIVE_INFINITY, isReply = () => false, onFailure = () => {} }: ReplyDeadlineOptions) {
    this.ms = ms;
    this.maxMs = maxMs;
    this.isReply = isReply;
    this.onFailure = onFailure;
  }

  /** Redis answered something (a reply, or an error reply: it is there either way). */
  heard(): void {
    this.lastReplyAt = performance.now();
  }

  /** `work`'s outcome, or a DeadlineError once Redis has been silent for `ms` while it waited. */
  within<T>(work: Promise<T>): Promise<T> {
    const batch = this.currentBatch();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      // The timer fired at `firedAt`; the poll phase that follows has read any reply since.
      // Redis failed only if it stayed silent up to then: time the loop spent elsewhere before
      // this runs (other immediates) is not Redis's.
      const decide = (firedAt: number) => {
        if (settled) return;
        const startedAt = batch.writtenAt;
        const renewedUntil = Math.max(startedAt, this.lastReplyAt) + this.ms;
        if (renewedUntil > firedAt && firedAt - startedAt < this.maxMs) {
          const left = Math.min(renewedUntil, startedAt + this.maxMs) - performance.now();
          timer = setTimeout(expired, Math.max(0, left));
          return;
        }
        settled = true;
        const error = new DeadlineError(`no answer from Redis within ${this.ms} ms`);
        this.onFailure(error);
        reject(error);
      };
      const expired = () => setImmediate(decide, performance.now());
      // Armed at the call: it cannot fire before the batch's setImmediate has run.
      timer = setTimeout(expired, this.ms);
      work.then(
        (value) => {
          settled = true;
          clearTimeout(timer);
          this.heard();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (this.isReply(error)) this.heard();
          else this.onFailure(error);
          reject(error);
        },
      );
    });
  }

  /** The batch a command issued now belongs to; its clock starts once ioredis has written it. */
  private currentBatch(): { writtenAt: number } {
    if (this.batch) return this.batch;
    const batch = { writtenAt: performance.now() };
    this.batch = batch;
    setImmediate(() => {
      batch.writtenAt = performance.now();
      this.batch = undefined;
    });
    return batch;
  }
}
