// The gateway's own responses: JSON, and the specification's error body
// `{"error":{"code":<status>,"message":"..."}}`, in one place so that every error of every route
// looks the same.
import type { GatewayResponse } from './exchange.ts';

/**
 * Messages can quote what a client sent (a path, a parameter); `<` and `>` are written as JSON
 * escapes, so the body parses the same but never carries markup a sniffing browser might run.
 */
export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message } }).replace(/[<>]/g, (char) => (char === '<' ? '\\u003c' : '\\u003e'));
}

export function jsonResponse(status: number, body: string | Buffer, headers: Record<string, string> = {}): GatewayResponse {
  return { status, body, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } };
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): GatewayResponse {
  return jsonResponse(status, errorBody(status, message), headers);
}
