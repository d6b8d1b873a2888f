// The gateway's refusals are said in the form of the request's destination, in one place (the
// error shaper, which the pipeline hands every error response): a GraphQL response on /graphql,
// in the media type the client accepts; the specification's error body everywhere else.
import { describe, expect, it } from 'vitest';
import { exchangeFromFetch, type Exchange, type GatewayResponse } from '../../gateway/pipeline/exchange.ts';
import { Pipeline } from '../../gateway/pipeline/pipeline.ts';
import type { Stage } from '../../gateway/pipeline/plugin.ts';
import { errorResponse } from '../../gateway/pipeline/responses.ts';
import { defaultErrorShaper } from '../../gateway/plugins/error-shaping/index.ts';
import { graphqlMediaType } from '../../gateway/plugins/error-shaping/graphql-response.ts';

describe('graphqlMediaType', () => {
  it.each([
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json;charset=utf-8, application/json;q=0.9', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['text/html, application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json;q=0, application/json', 'application/json'],
    ['application/*', 'application/json'],
    ['*/*', 'application/json'],
    ['text/html', 'application/json'],
    [undefined, 'application/json'],
  ])('Accept: %s -> %s', (accept, type) => {
    expect(graphqlMediaType(accept)).toBe(type);
  });
});

describe('refusals by destination', () => {
  const refuse: Stage = (exchange) => {
    exchange.responseHeaders['x-ratelimit-limit'] = '5';
    return errorResponse(429, 'Rate limit exceeded: <5> requests per hour', { 'retry-after': '60' });
  };
  const route =
    (kind: 'graphql' | 'rest'): Stage =>
    (exchange) => {
      exchange.destination = { kind, route: kind === 'graphql' ? '/graphql' : '/icons' };
      return undefined;
    };
  const run = (kind: 'graphql' | 'rest', headers: Record<string, string> = {}) => {
    const exchange: Exchange = exchangeFromFetch(new Request(`http://gateway.test/${kind === 'graphql' ? 'graphql' : 'icons'}`, { headers }));
    const pipeline = new Pipeline([{ name: 'router', stages: { route: route(kind) } }, { name: 'limits', stages: { limit: refuse } }], defaultErrorShaper());
    return pipeline.run(exchange) as GatewayResponse;
  };

  it('on /graphql: a GraphQL response with the code and status, the headers kept, no markup', () => {
    const response = run('graphql', { accept: 'application/graphql-response+json' });
    expect(response.status).toBe(429);
    expect(response.headers).toMatchObject({ 'content-type': 'application/graphql-response+json; charset=utf-8', 'retry-after': '60', 'x-ratelimit-limit': '5' });
    expect(response.body).not.toMatch(/[<>]/);
    expect(JSON.parse(String(response.body))).toEqual({
      errors: [{ message: 'Rate limit exceeded: <5> requests per hour', extensions: { code: 'RATE_LIMITED', http: { status: 429 } } }],
    });
    expect(run('graphql').headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('on REST paths: the specification body, whatever the client accepts', () => {
    const response = run('rest', { accept: 'application/graphql-response+json' });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(String(response.body))).toEqual({ error: { code: 429, message: 'Rate limit exceeded: <5> requests per hour' } });
  });

  it('an unexpected error on /graphql is a GraphQL response too, without its cause', () => {
    const exchange = exchangeFromFetch(new Request('http://gateway.test/graphql'));
    exchange.destination = { kind: 'graphql', route: '/graphql' };
    const pipeline = new Pipeline([], defaultErrorShaper());
    const response = pipeline.fail(new Error('connection refused at 10.0.0.7'), exchange);
    expect(response.status).toBe(500);
    expect(JSON.parse(String(response.body))).toEqual({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } }] });
  });
});
