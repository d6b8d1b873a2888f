// The pipeline answers without a promise when every stage does (pipeline/pipeline.ts); with a
// mix of synchronous and asynchronous stages, errors must still become the shaped 500 and the
// exchange's headers must reach the response exactly once.
import { describe, expect, it } from 'vitest';
import { exchangeFromFetch, type Exchange, type GatewayResponse } from '../../gateway/pipeline/exchange.ts';
import { jsonResponse, Pipeline, type Stage } from '../../gateway/pipeline/pipeline.ts';

function pipelineOf(stages: Stage[]): Pipeline {
  const pipeline = new Pipeline();
  const phases = ['start', 'route', 'auth', 'limit', 'handle'] as const;
  stages.forEach((stage, i) => pipeline.register(phases[i]!, `stage-${i}`, stage));
  pipeline.setErrorShaper((error) => jsonResponse(500, JSON.stringify({ error: { code: 500, message: (error as Error).message } })));
  return pipeline;
}

const exchange = (): Exchange => exchangeFromFetch(new Request('http://gateway.test/icons?page=2'));
const tag = (name: string): Stage => (ex) => {
  ex.responseHeaders[name] = 'yes';
  return undefined;
};
const answer = (status: number): Stage => () => jsonResponse(status, '{}');

describe('Pipeline', () => {
  it('answers synchronously when no stage returns a promise, with the headers set so far', () => {
    const result = pipelineOf([tag('x-a'), answer(200), tag('x-never')]).run(exchange());
    expect(result).not.toBeInstanceOf(Promise);
    const response = result as GatewayResponse;
    expect(response.status).toBe(200);
    expect(response.headers['x-a']).toBe('yes');
    expect(response.headers['x-never']).toBeUndefined();
    expect(pipelineOf([tag('x-a')]).run(exchange())).toBeUndefined();
  });

  it('goes on after an asynchronous stage, synchronous or not, and applies the headers once', async () => {
    const late: Stage = async (ex) => {
      ex.responseHeaders['x-late'] = 'yes';
      return undefined;
    };
    const ex = exchange();
    const result = pipelineOf([tag('x-a'), late, answer(204)]).run(ex);
    expect(result).toBeInstanceOf(Promise);
    const response = (await result)!;
    expect([response.status, response.headers['x-a'], response.headers['x-late'], response.headers['x-request-id']]).toEqual([204, 'yes', 'yes', ex.requestId]);
    expect(await pipelineOf([late, late]).run(exchange())).toBeUndefined();
  });

  it('shapes an error thrown synchronously, rejected, or thrown after an asynchronous stage', async () => {
    const thrown: Stage = () => {
      throw new Error('sync');
    };
    const rejected: Stage = async () => {
      throw new Error('async');
    };
    const passes: Stage = async () => undefined;
    const outcomes = [pipelineOf([tag('x-a'), thrown]).run(exchange()), pipelineOf([rejected]).run(exchange()), pipelineOf([passes, thrown]).run(exchange()), pipelineOf([passes, rejected]).run(exchange())];
    const responses = await Promise.all(outcomes);
    expect(responses.map((response) => [response?.status, JSON.parse(String(response?.body)).error.message])).toEqual([
      [500, 'sync'],
      [500, 'async'],
      [500, 'sync'],
      [500, 'async'],
    ]);
    expect(responses[0]!.headers['x-a']).toBe('yes');
  });
});
