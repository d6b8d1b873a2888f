// Expected failures, each with a code and the HTTP status a gateway should answer with.
// Their messages are written to be shown to clients; anything else is masked.
import { GraphQLError } from 'graphql';

export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function catalogueError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extra, code, http: { status: ERROR_STATUS[code] } } });
}

export function badInput(argument: string, message: string): GraphQLError {
  return catalogueError('BAD_USER_INPUT', message, { argument });
}
