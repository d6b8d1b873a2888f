// Every error leaves the REST API as the specification's body, {"error":{"code":N,"message"}},
// with the right status and without GraphQL wording or stack traces: expected failures (the
// resolvers' BAD_USER_INPUT, FORBIDDEN, NOT_FOUND...) keep their message; anything else is
// logged with the request id and answered 500 "Internal server error".
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../../resolvers/errors.ts';
import type { Exchange, GatewayResponse } from '../pipeline/exchange.ts';
import { errorResponse, pipeline } from '../pipeline/pipeline.ts';
import { usePipelineInYoga } from '../pipeline/yoga-bridge.ts';
import { processSingleton } from '../../lib/process-singleton.ts';
import { parsePluginOptions } from './plugin-options.ts';
import { logger } from '../../lib/logger.ts';

export const errorShapingOptions = z
  .object({
    /** Message of 500 responses (the cause goes to the log only). @default "Internal server error" */
    internalErrorMessage: z.string().min(1).default('Internal server error'),
  })
  .strict();

export const PLUGIN_NAME = '@icon-catalogue/gateway/error-shaping';

const shared = processSingleton('error-shaping', () => ({ internalErrorMessage: 'Internal server error' }));

function logUnexpected(exchange: Exchange, error: unknown): void {
  const cause = error as { message?: string; stack?: string; originalError?: { message?: string; stack?: string } };
  const original = cause?.originalError ?? cause;
  logger.error({
    msg: 'unexpected error',
    requestId: exchange.requestId,
    method: exchange.method,
    path: exchange.path,
    error: original?.message ?? String(error),
    stack: original?.stack,
  });
}

/** A database pool that had no connection free in time: overload, which a client can retry. */
function isPoolExhausted(error: unknown): boolean {
  for (let cause = error as { message?: unknown; originalError?: unknown; cause?: unknown } | undefined, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause.message === 'string' && /timeout exceeded when trying to connect|timed out fetching a new connection/i.test(cause.message)) return true;
    cause = (cause.originalError ?? cause.cause) as typeof cause;
  }
  return false;
}

/** The response for an error nobody expected (503 with Retry-After when it is overload). */
export function unexpectedErrorResponse(error: unknown, exchange: Exchange): GatewayResponse {
  logUnexpected(exchange, error);
  if (isPoolExhausted(error)) return errorResponse(503, 'The service is busy; try again shortly', { 'retry-after': '1' });
  return errorResponse(500, shared.internalErrorMessage);
}

/** The response for a GraphQL result with errors: the first error with a known code decides. */
export function graphQLErrorsResponse(errors: readonly GraphQLError[], exchange: Exchange): GatewayResponse {
  for (const error of errors) {
    const code = error.extensions?.code as ErrorCode | undefined;
    if (code && code in ERROR_STATUS) return errorResponse(ERROR_STATUS[code], error.message);
  }
  return unexpectedErrorResponse(errors[0], exchange);
}

export default function useErrorShaping(rawOptions: Record<string, unknown> = {}): Plugin {
  const options = parsePluginOptions(errorShapingOptions, PLUGIN_NAME, rawOptions);
  shared.internalErrorMessage = options.internalErrorMessage;
  pipeline.setErrorShaper(unexpectedErrorResponse);
  return usePipelineInYoga();
}
