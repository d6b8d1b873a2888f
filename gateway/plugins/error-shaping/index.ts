// Every error leaves the gateway in the form its destination speaks, with the right status and
// without stack traces. On REST paths (and probes, documents, unknown paths) that is the
// specification's body, {"error":{"code":N,"message"}}, without GraphQL wording: expected
// failures (the resolvers' BAD_USER_INPUT, FORBIDDEN, NOT_FOUND...) keep their message; anything
// else is logged with the request id and answered 500 with `internalErrorMessage`, or 503 with
// Retry-After when the database could not answer (unreachable, timed out, or too busy:
// prisma/unavailable.ts), which is summed up in the log instead (unavailable-log.ts).
// On /graphql the gateway's own refusals (401, 429, ...) are GraphQL responses
// (graphql-response.ts), and the plugin's Yoga plugins make Mesh's server answer as GraphQL over
// HTTP says (graphql-results.ts), replace unexpected errors in results by `internalErrorMessage`
// (Mesh serves GraphQL with Yoga's masking off, which would send a database error's text to the
// client), and database unavailability by a SERVICE_UNAVAILABLE error with HTTP status 503. The
// gateway uses this shaper for stages, REST results and the front alike; without the plugin in
// .meshrc.yaml it uses the same shaper with the default message, without the Yoga plugins.
import { GraphQLError } from 'graphql';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { ERROR_STATUS, unavailability, type ErrorCode } from '../../../resolvers/errors.ts';
import { logger } from '../../../lib/logger.ts';
import type { DatabaseUnavailableError } from '../../../prisma/unavailable.ts';
import type { Exchange, RequestCarrier } from '../../pipeline/exchange.ts';
import type { ErrorShaper, GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { graphqlErrorResponse } from './graphql-response.ts';
import { resultErrors, useGraphQLRequestErrors } from './graphql-results.ts';
import { errorShapingOptions, type ErrorShapingOptions } from './options.ts';
import { UnavailableLog } from './unavailable-log.ts';

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

const retryAfter = (unavailable: DatabaseUnavailableError) => ({ 'retry-after': String(unavailable.retryAfterSeconds) });

export function createErrorShaper({ internalErrorMessage }: ErrorShapingOptions, unavailableLog = new UnavailableLog()): ErrorShaper {
  const unexpected: ErrorShaper['unexpected'] = (error, exchange) => {
    const unavailable = unavailability(error);
    if (unavailable) {
      unavailableLog.report(unavailable, exchange);
      return errorResponse(503, unavailable.clientMessage, retryAfter(unavailable));
    }
    logUnexpected(exchange, error);
    return errorResponse(500, internalErrorMessage);
  };
  return {
    unexpected,
    fromGraphQL(errors: readonly GraphQLError[], exchange) {
      const unavailable = errors.find((error) => unavailability(error));
      if (unavailable) return unexpected(unavailable, exchange);
      for (const error of errors) {
        const code = error.extensions?.code as ErrorCode | undefined;
        if (code && code in ERROR_STATUS) return errorResponse(ERROR_STATUS[code], error.message);
      }
      return unexpected(errors[0], exchange);
    },
    forDestination(response, exchange) {
      const { error } = response;
      if (!error || exchange.destination?.kind !== 'graphql') return response;
      return graphqlErrorResponse({ ...response, error }, exchange.header('accept'));
    },
  };
}

export const defaultErrorShaper = (): ErrorShaper => createErrorShaper(errorShapingOptions.parse({}));

/** Whether a GraphQL error is one the API means to show: a known code, or a request error (syntax, validation) rather than a failure. */
function isExpected(error: GraphQLError): boolean {
  const code = error.extensions?.code as string | undefined;
  return (code !== undefined && code in ERROR_STATUS) || error.originalError === undefined || error.originalError instanceof GraphQLError;
}

export const useErrorShaping: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(errorShapingOptions, rawOptions, where);
  const unavailableLog = new UnavailableLog();
  const masked = (error: GraphQLError, exchange: Exchange) => {
    const unavailable = unavailability(error);
    if (unavailable) {
      unavailableLog.report(unavailable, exchange);
      const http = { status: 503, headers: retryAfter(unavailable) };
      return new GraphQLError(unavailable.clientMessage, { path: error.path, extensions: { code: 'SERVICE_UNAVAILABLE', http } });
    }
    if (isExpected(error)) return error;
    logUnexpected(exchange, error);
    return new GraphQLError(options.internalErrorMessage, { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } });
  };
  const shapeGraphQLResults: YogaPlugin = {
    onExecute({ args }) {
      const exchange = services.exchangeOf(args.contextValue as RequestCarrier);
      if (exchange?.destination?.kind !== 'graphql') return undefined; // REST results are shaped as responses
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length) return;
          const errors = result.errors.map((error) => masked(error, exchange));
          setResult({ ...result, errors: resultErrors(errors, result) });
        },
      };
    },
  };
  return { name: 'error-shaping', errors: createErrorShaper(options, unavailableLog), yoga: [useGraphQLRequestErrors(), shapeGraphQLResults] };
};
