// The specification's error body, as tests of HTTP responses check it.
import { expect } from 'vitest';

/** `status` with a JSON body of exactly `{ error: { code, message } }`, the message matching `message` when given. */
export function expectError(response: { status: number; text: string; headers: Headers }, status: number, message?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(response.text);
  expect(body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (message) expect(body.error.message).toMatch(message);
}
