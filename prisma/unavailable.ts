// When the database cannot answer, a request did nothing wrong: the client should come back
// later (503 with Retry-After), not be told of an internal error (500). This module tells those
// failures from the others, whichever layer they surface in (the pg driver, Prisma's adapter
// errors, Prisma's client errors, or the query guard's own refusals), and names why:
//   unreachable  no connection, or a connection that stopped answering (down, restarting, stalled)
//   timeout      the server cancelled a statement that ran past statement_timeout
//   busy         no connection free in time, or more queries waiting than the guard allows
export type UnavailableReason = 'unreachable' | 'timeout' | 'busy';

/** Seconds a client should wait before retrying, by reason (the Retry-After header). */
export const RETRY_AFTER_SECONDS: Readonly<Record<UnavailableReason, number>> = { unreachable: 5, timeout: 2, busy: 1 };

/** What a client is told, by reason: no driver text, which could name hosts or SQL. */
const CLIENT_MESSAGES: Readonly<Record<UnavailableReason, string>> = {
  unreachable: 'The catalogue database is unreachable; try again shortly',
  timeout: 'The catalogue database did not answer in time; try again shortly',
  busy: 'The service is busy; try again shortly',
};

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';

  constructor(
    readonly reason: UnavailableReason,
    options?: { cause?: unknown; message?: string },
  ) {
    super(options?.message ?? `database ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  get retryAfterSeconds(): number {
    return RETRY_AFTER_SECONDS[this.reason];
  }

  get clientMessage(): string {
    return CLIENT_MESSAGES[this.reason];
  }

  /** The driver's own error behind this one (for the log), or this error when there is none. */
  get rootCause(): Error {
    let cause: unknown = this;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    return cause as Error;
  }
}

/** Node's socket errors that mean the server cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** Prisma's client error codes (https://www.prisma.io/docs/orm/reference/error-reference). */
const PRISMA_CODES: Readonly<Record<string, UnavailableReason>> = {
  P1001: 'unreachable', // can't reach database server
  P1002: 'unreachable', // database server reached but timed out
  P1017: 'unreachable', // server has closed the connection
  P1008: 'timeout', // operations timed out
  P2024: 'busy', // timed out fetching a new connection from the pool
};

/** Kinds of @prisma/driver-adapter-utils' DriverAdapterError. */
const ADAPTER_KINDS: Readonly<Record<string, UnavailableReason>> = {
  DatabaseNotReachable: 'unreachable',
  ConnectionClosed: 'unreachable',
  SocketTimeout: 'unreachable',
  TooManyConnections: 'busy',
};

/** PostgreSQL SQLSTATEs (class 08: connection exceptions). */
function reasonOfSqlState(code: string): UnavailableReason | undefined {
  if (code === '57014') return 'timeout'; // query_canceled (statement_timeout)
  if (code === '57P01' || code === '57P02' || code === '57P03') return 'unreachable'; // shutting down, crashed, starting up
  if (code === '53300') return 'busy'; // too_many_connections
  if (code.startsWith('08')) return 'unreachable';
  return undefined;
}

/** Messages of node-postgres (pg, pg-pool) that carry no code. */
const PG_MESSAGES: readonly [RegExp, UnavailableReason][] = [
  [/^timeout exceeded when trying to connect$/i, 'busy'], // waited for a pooled connection
  [/^Connection terminated|^Query read timeout$|^Connection ended unexpectedly|encountered a connection error/i, 'unreachable'],
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  kind?: unknown;
  meta?: { driverAdapterError?: { cause?: ErrorLike } };
  cause?: unknown;
  originalError?: unknown;
}

export const isUnavailableReason = (value: unknown): value is UnavailableReason => typeof value === 'string' && Object.hasOwn(RETRY_AFTER_SECONDS, value);

/** Why one error (not its causes) means the database cannot answer; undefined when it does not. */
function reasonOf(error: ErrorLike): UnavailableReason | undefined {
  if (error instanceof DatabaseUnavailableError) return error.reason;
  const { code, message } = error;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code)) return 'unreachable';
    if (Object.hasOwn(PRISMA_CODES, code)) return PRISMA_CODES[code];
    if (typeof error.severity === 'string' || error.kind === 'postgres') return reasonOfSqlState(code);
  }
  if (typeof error.kind === 'string' && Object.hasOwn(ADAPTER_KINDS, error.kind)) return ADAPTER_KINDS[error.kind];
  const adapterCause = error.meta?.driverAdapterError?.cause;
  if (adapterCause) return reasonOf(adapterCause);
  if (typeof message === 'string') return PG_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
  return undefined;
}

/**
 * The database failure behind `error` (looked for along its causes: GraphQL's originalError,
 * Error.cause, a DriverAdapterError's cause), as a DatabaseUnavailableError; undefined when
 * `error` is not one (a bug, a bad query: those stay 500).
 */
export function databaseUnavailability(error: unknown): DatabaseUnavailableError | undefined {
  let current = error as ErrorLike | undefined;
  let lastError = error; // the cause to keep: a DriverAdapterError's own cause is a plain object
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (current instanceof DatabaseUnavailableError) return current;
    if (current instanceof Error) lastError = current;
    const reason = reasonOf(current);
    if (reason) return new DatabaseUnavailableError(reason, { cause: lastError });
    const { originalError, cause } = current as ErrorLike;
    current = (originalError ?? cause) as ErrorLike | undefined;
  }
  return undefined;
}
