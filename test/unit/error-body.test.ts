// Error messages can quote what a client sent; the body must parse to the same message but
// never carry markup (gateway/http/error-body.ts).
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../gateway/pipeline/responses.ts';

describe('errorBody', () => {
  it('escapes < and > as JSON escapes, so the body parses back to the same message', () => {
    const message = 'No route for /<script>alert("x")</script>?a=1&b=2';
    const body = errorBody(404, message);
    expect(body).not.toMatch(/[<>]/);
    expect(JSON.parse(body)).toEqual({ error: { code: 404, message } });
  });
});
