// The gateway's own responses: JSON, and the specification's error body
// `{"error":{"code":<status>,"message":"..."}}`, in one place so that every error of every route
// looks the same.
import type { Exchange, GatewayResponse } from './exchange.ts';

/**
 * JSON of an error: messages can quote what a client sent (a path, a parameter); `<` and `>` are
 * written as JSON escapes, so the body parses the same but never carries markup a sniffing
 * browser might run.
 */
export function errorJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>]/g, (char) => (char === '<' ? '\\u003c' : '\\u003e'));
}

export function errorBody(status: number, message: string): string {
  return errorJson({ error: { code: status, message } });
}

export function jsonResponse(status: number, body: string | Buffer, headers: Record<string, string> = {}): GatewayResponse {
  return { status, body, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } };
}

/** The methods of a read-only path: HEAD answers like GET, without the body. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD'];

/** 405 for a method outside `allowed`, with the Allow header; undefined when the method is allowed. */
export function methodNotAllowed(exchange: Pick<Exchange, 'method' | 'path'>, allowed: readonly string[]): GatewayResponse | undefined {
  if (allowed.includes(exchange.method)) return undefined;
  return errorResponse(405, `${exchange.method} is not allowed on ${exchange.path}`, { allow: allowed.join(', ') });
}

/**
 * An error in the specification's body; the pipeline hands it to the error shaper, which may say
 * it in another form for the request's destination (a GraphQL response on /graphql).
 */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): GatewayResponse {
  return { ...jsonResponse(status, errorBody(status, message), headers), error: { message } };
}
