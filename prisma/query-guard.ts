// What stands between a serving gateway and its database (the CLI does without): every query
// of the Prisma client passes through one QueryGuard, which
//   - sheds load: beyond the queries that can run at once (the pool's size; 1 for PGlite), at
//     most `maxWaiting` may wait; more are refused at once. A queue longer than that holds
//     requests whose clients have given up (2,000 requests on a pool of 10 waited 14 s at p50).
//   - fails fast while the database is unreachable: once a query found it down or stalled, the
//     others are refused at once, and one query a second (a second after the last such try
//     ended) is let through to find out whether it is back (a circuit breaker), instead of
//     every request waiting for its own timeout.
// Refusals are DatabaseUnavailableErrors (503 with Retry-After); so are the driver's own
// failures of those kinds, which the guard classifies on their way up.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { logger } from '../lib/logger.ts';
import { databaseUnavailability, DatabaseUnavailableError } from './unavailable.ts';

export type AvailabilityChange = { reachable: false; error: DatabaseUnavailableError } | { reachable: true; unreachableMs: number; refused: number };

export interface QueryGuardOptions {
  /** Queries that can run at once: the pool's size (1 for PGlite). */
  capacity: number;
  /** Queries that may wait beyond `capacity`; more are refused at once. */
  maxWaiting: number;
  /** While the database is unreachable, one query goes through to try it this many ms after the last try ended. @default 1000 */
  trialIntervalMs?: number;
  /** Told when the database turns unreachable and when it answers again. */
  onChange?: (change: AvailabilityChange) => void;
}

interface Outage {
  since: number;
  /** performance.now() when it began: a query that started earlier and then succeeds says nothing about now. */
  began: number;
  cause: DatabaseUnavailableError;
  /** Queries refused at once since it began. */
  refused: number;
  nextTrialAt: number;
  trying: boolean;
}

export class QueryGuard {
  private inFlight = 0;
  private outage: Outage | undefined;
  /** performance.now() of the last query the database answered. */
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private readonly capacity: number;
  private readonly maxWaiting: number;
  private readonly trialIntervalMs: number;
  private readonly onChange: (change: AvailabilityChange) => void;

  constructor({ capacity, maxWaiting, trialIntervalMs = 1_000, onChange = () => {} }: QueryGuardOptions) {
    this.capacity = capacity;
    this.maxWaiting = maxWaiting;
    this.trialIntervalMs = trialIntervalMs;
    this.onChange = onChange;
  }

  /** False from the first query that found the database unreachable until one gets an answer again. */
  get reachable(): boolean {
    return this.outage === undefined;
  }

  /**
   * The refusal a query would get now, without taking a place or a try: for callers that can
   * refuse a request before preparing its queries.
   */
  refusal(): DatabaseUnavailableError | undefined {
    const outage = this.outage;
    if (outage) return outage.trying || Date.now() < outage.nextTrialAt ? this.unreachableRefusal(outage) : undefined;
    return this.inFlight >= this.capacity + this.maxWaiting ? this.busyRefusal() : undefined;
  }

  async run<T>(query: () => Promise<T>): Promise<T> {
    const trial = this.admit();
    const startedAt = performance.now();
    this.inFlight++;
    try {
      const result = await query();
      this.answered(startedAt);
      return result;
    } catch (error) {
      const unavailable = databaseUnavailability(error);
      if (unavailable?.reason === 'unreachable') {
        // An answer that came while this query waited contradicts it: during a burst a busy event
        // loop can let a timeout fire on a healthy connection; in an outage nothing answers. A
        // contradicted failure is no answer either: counted as one, overlapping stalled queries
        // would contradict each other and a stall would never be noticed.
        if (!(this.lastAnswerAt > startedAt)) this.unreachable(unavailable);
      } else if (unavailable?.reason !== 'busy') {
        // An SQL error or a statement the server cancelled is an answer; a pool wait says nothing.
        this.answered(startedAt);
      }
      throw unavailable ?? error;
    } finally {
      this.inFlight--;
      // The next try waits an interval from this one's end: a stalled database holds a try for
      // the query timeout, and counted from its start, every query after it would be one.
      if (trial && this.outage) {
        this.outage.trying = false;
        this.outage.nextTrialAt = Date.now() + this.trialIntervalMs;
      }
    }
  }

  /** Throws the refusal, or says whether this query is the one that tries an unreachable database. */
  private admit(): boolean {
    const outage = this.outage;
    if (outage) {
      const now = Date.now();
      if (outage.trying || now < outage.nextTrialAt) throw this.unreachableRefusal(outage);
      outage.trying = true;
      return true;
    }
    if (this.inFlight >= this.capacity + this.maxWaiting) throw this.busyRefusal();
    return false;
  }

  private unreachableRefusal(outage: Outage): DatabaseUnavailableError {
    outage.refused++;
    return new DatabaseUnavailableError('unreachable', { cause: outage.cause, message: 'database unreachable (refused without trying)' });
  }

  private busyRefusal(): DatabaseUnavailableError {
    return new DatabaseUnavailableError('busy', { message: `${this.maxWaiting} queries already wait for a database connection` });
  }

  private unreachable(error: DatabaseUnavailableError): void {
    if (this.outage) return;
    const now = Date.now();
    this.outage = { since: now, began: performance.now(), cause: error, refused: 0, nextTrialAt: now + this.trialIntervalMs, trying: false };
    this.onChange({ reachable: false, error });
  }

  /** A query that started at `startedAt` got an answer: the outage ends only if it started after the outage began. */
  private answered(startedAt: number): void {
    this.lastAnswerAt = performance.now();
    const outage = this.outage;
    if (!outage || startedAt < outage.began) return;
    this.outage = undefined;
    this.onChange({ reachable: true, unreachableMs: Date.now() - outage.since, refused: outage.refused });
  }
}

/** A factory whose adapters send every query through `guard`. */
export function guardAdapterFactory(factory: SqlDriverAdapterFactory, guard: QueryGuard): SqlDriverAdapterFactory {
  return {
    adapterName: factory.adapterName,
    provider: factory.provider,
    connect: async () => guardAdapter(await factory.connect(), guard),
  };
}

function guardAdapter(adapter: SqlDriverAdapter, guard: QueryGuard): SqlDriverAdapter {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.queryRaw = (query) => guard.run(() => queryRaw(query));
  adapter.executeRaw = (query) => guard.run(() => executeRaw(query));
  // A transaction's own statements hold the connection it took; taking it is what waits.
  adapter.startTransaction = (isolationLevel) => guard.run(() => startTransaction(isolationLevel));
  return adapter;
}

/**
 * The log of a serving database's availability: the full error once when it turns unreachable
 * (requests failing meanwhile are summed up by the gateway, not logged one by one), and one
 * line when it answers again.
 */
export function logAvailabilityChange(change: AvailabilityChange): void {
  if (!change.reachable) {
    const cause = change.error.rootCause;
    const payload = (cause as { cause?: unknown }).cause;
    logger.error({
      msg: 'database unreachable: queries are refused (503) until it answers again; one a second tries it',
      error: cause.message,
      ...(payload && typeof payload === 'object' && !(payload instanceof Error) ? { detail: payload } : {}),
      stack: cause.stack,
    });
    return;
  }
  logger.warn({
    msg: 'database reachable again',
    unreachableSeconds: Math.round(change.unreachableMs / 100) / 10,
    refusedQueries: change.refused,
  });
}
