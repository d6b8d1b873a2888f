// Expected failures, each with a code and the HTTP status a gateway should answer with.
// Their messages are written to be shown to clients; anything else is masked.
import { GraphQLError } from 'graphql';
import { databaseUnavailability, DatabaseUnavailableError, isUnavailableReason } from '../prisma/unavailable.ts';

export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function catalogueError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extra, code, http: { status: ERROR_STATUS[code] } } });
}

export function badInput(argument: string, message: string): GraphQLError {
  return catalogueError('BAD_USER_INPUT', message, { argument });
}

/**
 * The database could not answer (prisma/unavailable.ts): SERVICE_UNAVAILABLE, 503 with
 * Retry-After. Made without a link to the driver's error, which GraphQL Mesh would log, stack
 * and all, for every request of an outage (NODE_ENV=production) or rebuild without its cause.
 */
export function unavailableError(error: DatabaseUnavailableError): GraphQLError {
  const http = { status: ERROR_STATUS.SERVICE_UNAVAILABLE, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  return new GraphQLError(error.clientMessage, { extensions: { code: 'SERVICE_UNAVAILABLE', reason: error.reason, http } });
}

/** The database failure behind `error`: a SERVICE_UNAVAILABLE GraphQL error, or a driver error databaseUnavailability knows. */
export function unavailability(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof GraphQLError && error.extensions?.code === 'SERVICE_UNAVAILABLE') {
    const { reason } = error.extensions;
    return new DatabaseUnavailableError(isUnavailableReason(reason) ? reason : 'unreachable', { cause: error, message: error.message });
  }
  return databaseUnavailability(error);
}
