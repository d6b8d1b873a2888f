// The API's description as the plugins of one gateway give it (their `describes`), with what
// the pipeline itself does on every request: the request id on every response, the 500 and 503
// of the error shaper, and the server's 408 and 431. The OpenAPI document (rest-routes) is built from it.
import type { AddedHeader, ApiDescription, DescribedResponse, GatewayPlugin } from './plugin.ts';

const REQUEST_ID: AddedHeader = {
  name: 'X-Request-Id',
  description: 'The request’s id, also in the server’s log line: the client’s own X-Request-Id when it is a plain token (letters, digits, `.`, `_`, `:`, `-`) of up to 128 characters, else a new UUID.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  always: true,
};

const PIPELINE_RESPONSES: DescribedResponse[] = [
  // Answered by the HTTP server before a request reaches a route (gateway/front/server.ts).
  { status: 408, description: 'The request line, headers or body did not arrive within the server’s time limits (`server.headersTimeoutMs`, `server.requestTimeoutMs`); the connection is closed.' },
  { status: 431, description: 'The request line and headers are over 16 KB (a URL that long included); the connection is closed.' },
  { status: 500, description: 'Unexpected error (logged with the request id; the message never holds details).' },
  {
    status: 503,
    description: 'The service is overloaded or a store it needs is unavailable; try again after Retry-After seconds.',
    headers: [{ name: 'Retry-After', description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } }],
  },
];

export function describeApi(plugins: readonly GatewayPlugin[]): ApiDescription {
  const described = plugins.map((plugin) => plugin.describes ?? {});
  return {
    securitySchemes: Object.assign({}, ...described.map((d) => d.securitySchemes ?? {})),
    security: described.flatMap((d) => d.security ?? []),
    responses: [...PIPELINE_RESPONSES, ...described.flatMap((d) => d.responses ?? [])],
    headers: [REQUEST_ID, ...described.flatMap((d) => d.headers ?? [])],
    overview: described.flatMap((d) => d.overview ?? []),
    paths: described.flatMap((d) => d.paths ?? []),
  };
}
