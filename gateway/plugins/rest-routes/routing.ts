// The route stage of rest-routes: which of its destinations a request is for (a route, the
// OpenAPI document, /graphql), or its 404 or 405, before authentication runs.
import { GRAPHQL_PATH, type Exchange, type GatewayResponse } from '../../pipeline/exchange.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { ParamError } from './params.ts';
import { RouteTable, type RouteMatch } from './route-table.ts';

const MATCH = Symbol('rest-routes: the route a request matched');

/** The response that ends the request here, or undefined with its destination set. */
export function routeRequest(exchange: Exchange, table: RouteTable, documentPath: string): GatewayResponse | undefined {
  const { path } = exchange;
  if (path === GRAPHQL_PATH) {
    // Known first, so that even a 405 here is said as a GraphQL response.
    exchange.destination = { kind: 'graphql', route: GRAPHQL_PATH };
    return methodNotAllowed(exchange, ['GET', 'POST']);
  }
  const isDocument = path === documentPath;
  const match = isDocument ? undefined : table.match(path);
  if (!isDocument && !match) return errorResponse(404, `No route for ${path}`);
  const refused = methodNotAllowed(exchange, READ_METHODS);
  if (refused) return refused;
  if (match) {
    exchange[MATCH] = match;
    exchange.destination = { kind: 'rest', route: match.route.config.path };
  } else {
    exchange.destination = { kind: 'document', route: path };
  }
  return undefined;
}

/** The route routeRequest matched, if the request is for one. */
export const matchedRoute = (exchange: Exchange): RouteMatch | undefined => exchange[MATCH] as RouteMatch | undefined;

/** The operation's variables from the query, or the error naming the parameter rule it breaks. */
export function routeVariables(match: RouteMatch, query: URLSearchParams): Record<string, unknown> | ParamError {
  try {
    return RouteTable.variables(match, query);
  } catch (error) {
    if (error instanceof ParamError) return error;
    throw error;
  }
}
