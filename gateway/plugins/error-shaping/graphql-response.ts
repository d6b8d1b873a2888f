// The gateway's own refusals (401, 429, 503...) on /graphql, said as GraphQL over HTTP says
// errors: a GraphQL response with no `data`, `extensions.code` for programs and
// `extensions.http.status` equal to the status, in the media type the client accepts
// (application/graphql-response+json, else application/json), with the refusal's status and
// headers (WWW-Authenticate, Retry-After, the limit headers) kept.
import type { GatewayResponse } from '../../pipeline/exchange.ts';
import { errorJson } from '../../pipeline/responses.ts';

export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';

/** The code a GraphQL client reads for each status the gateway refuses with. */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export function codeOfStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

/**
 * The media type of a GraphQL response to a request with this Accept header: the first of
 * application/graphql-response+json and application/json (or a wildcard, which means
 * application/json, as the GraphQL over HTTP specification and Yoga have it) in the client's
 * order; application/json when it names neither. Entries with q=0 are refusals, not offers.
 */
export function graphqlMediaType(accept: string | undefined): string {
  for (const entry of (accept ?? '').split(',')) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (params.some((param) => /^q=0(\.0*)?$/.test(param))) continue;
    if (range === GRAPHQL_RESPONSE_TYPE) return GRAPHQL_RESPONSE_TYPE;
    if (range === 'application/json' || range === 'application/*' || range === '*/*') return 'application/json';
  }
  return 'application/json';
}

/** A refusal built by errorResponse, as a GraphQL response. */
export function graphqlErrorResponse(response: GatewayResponse & { error: { message: string } }, accept: string | undefined): GatewayResponse {
  const { status, error } = response;
  const body = errorJson({ errors: [{ message: error.message, extensions: { code: codeOfStatus(status), http: { status } } }] });
  // private, no-store as on every GraphQL response (graphql-cache); under Yoga alone that plugin
  // would add it to this response too, and every serve mode must answer alike.
  const headers = { ...response.headers, 'content-type': `${graphqlMediaType(accept)}; charset=utf-8`, 'cache-control': 'private, no-store' };
  return { status, headers, body, error };
}
