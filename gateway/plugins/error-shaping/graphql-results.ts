// How /graphql answers, as GraphQL over HTTP says, whatever plugins Mesh adds:
// - A document that fails validation is a request error: no `data`, code
//   GRAPHQL_VALIDATION_FAILED, 400 with application/graphql-response+json and 200 with
//   application/json (Yoga does that for errors validation reports). Two kinds of failure did
//   not get there: GraphQL Armor's limits (depth, aliases, cost) throw from validation instead
//   of reporting, with "Syntax Error: " before their message, and an operation type the schema
//   lacks (subscription, mutation) failed at execution, without data and without a code.
// - Validation errors came twice: Mesh's engine and Yoga's each add graphql's specified rules,
//   so every rule ran twice. And they had no `locations`: Mesh parses without them (Yoga keeps
//   parsed documents in its own cache either way).
// - Variables that do not fit the operation stop it before it runs, like validation: no data,
//   400 or 200 by media type as above; they had no code (now BAD_USER_INPUT) and were 400 even
//   with application/json.
// - An executed operation answers 200 (a response with data must be 2xx, one whose data is null
//   should be); its errors keep their codes, and their HTTP statuses, meant for REST, are not
//   the response's. Only an unexpected failure that left no data answers 500.
import { GraphQLError, parse, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import type { Plugin as YogaPlugin } from 'graphql-yoga';

/** graphql 17's rule of that name: an operation of a type the schema does not have is invalid. */
export function KnownOperationTypesRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (!context.getSchema().getRootType(node.operation)) {
        context.reportError(new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, { nodes: node }));
      }
    },
  };
}

/** An error a validation rule threw (GraphQL Armor does) as the validation error it is. */
function reported(error: GraphQLError): GraphQLError {
  // Validation runs on a parsed document: whatever a rule says, it is not a syntax error.
  return new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { nodes: error.nodes, extensions: error.extensions });
}

export const useGraphQLRequestErrors = (): YogaPlugin => ({
  onParse({ setParseFn }) {
    setParseFn(parse);
  },
  onValidate({ validateFn, setValidationFn, addValidationRule }) {
    addValidationRule(KnownOperationTypesRule);
    setValidationFn((schema, document, rules, ...rest) => {
      try {
        return validateFn(schema, document, rules && [...new Set<ValidationRule>(rules)], ...rest);
      } catch (error) {
        if (error instanceof GraphQLError) return [reported(error)];
        throw error;
      }
    });
  },
});

function withExtensions(error: GraphQLError, extensions: GraphQLError['extensions']): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions });
}

function withoutHttpStatus(error: GraphQLError): GraphQLError {
  if (!error.extensions.http) return error;
  const { http: _status, ...extensions } = error.extensions;
  return withExtensions(error, extensions);
}

/** As Yoga marks validation errors: 400, except for application/json (`spec`). */
const REQUEST_ERROR_HTTP = { spec: true, status: 400 };

/**
 * The errors of a result of `execute`, with the code and HTTP status the response should carry
 * (see above): without `data` the operation never ran (its variables did not fit).
 */
export function resultErrors(errors: readonly GraphQLError[], result: { data?: unknown }): GraphQLError[] {
  return errors.map((error) => {
    // Failures of the server, not of the request: with no data left they keep their HTTP status (500, or 503 with Retry-After).
    const unexpected = error.extensions.code === 'INTERNAL_SERVER_ERROR' || error.extensions.code === 'SERVICE_UNAVAILABLE';
    if (result.data === undefined) return unexpected ? error : withExtensions(error, { code: 'BAD_USER_INPUT', ...error.extensions, http: REQUEST_ERROR_HTTP });
    return result.data === null && unexpected ? error : withoutHttpStatus(error);
  });
}
