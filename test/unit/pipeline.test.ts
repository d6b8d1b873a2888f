// The pipeline answers without a promise when every stage does (pipeline/pipeline.ts); with a
// mix of synchronous and asynchronous stages, errors must still become the shaped 500 and the
// exchange's headers must reach the response exactly once.
import { describe, expect, it } from 'vitest';
import { exchangeFromFetch, type Exchange, type GatewayResponse } from '../../gateway/pipeline/exchange.ts';
import { Pipeline } from '../../gateway/pipeline/pipeline.ts';
import { PHASES, type ErrorShaper, type GatewayPlugin, type Stage } from '../../gateway/pipeline/plugin.ts';
import { jsonResponse } from '../../gateway/pipeline/responses.ts';

const shaper: ErrorShaper = {
  unexpected: (error) => jsonResponse(500, JSON.stringify({ error: { code: 500, message: (error as Error).message } })),
  fromGraphQL: () => jsonResponse(500, '{}'),
  forDestination: (response) => response,
};

/** One plugin per stage, each stage in the next phase. */
function pipelineOf(stages: Stage[]): Pipeline {
  return new Pipeline(
    stages.map((stage, i) => ({ name: `plugin-${i}`, stages: { [PHASES[i]!]: stage } })),
    shaper,
  );
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

  it('runs stages by phase first, then in the order the plugins are listed', async () => {
    const order: string[] = [];
    const note = (label: string): Stage => () => void order.push(label);
    const plugins: GatewayPlugin[] = [
      { name: 'a', stages: { handle: note('a.handle'), route: note('a.route') } },
      { name: 'b', stages: { auth: note('b.auth'), route: note('b.route'), start: note('b.start') } },
      { name: 'c', stages: { handle: note('c.handle') } },
    ];
    expect(new Pipeline(plugins, shaper).run(exchange())).toBeUndefined();
    expect(order).toEqual(['b.start', 'a.route', 'b.route', 'b.auth', 'a.handle', 'c.handle']);
  });

  it('tells every plugin how a request ended, in the listed order', () => {
    const told: string[] = [];
    const plugins: GatewayPlugin[] = ['a', 'b'].map((name) => ({ name, onComplete: (ex: Exchange, status: number) => void told.push(`${name}:${status}:${ex.path}`) }));
    new Pipeline(plugins, shaper).complete(exchange(), 429);
    expect(told).toEqual(['a:429:/icons', 'b:429:/icons']);
  });

  it("reports a start stage's failure, thrown or rejected, as an unexpected error with the exchange, and keeps the headers set", async () => {
    const reported: string[] = [];
    const reporting: ErrorShaper = {
      ...shaper,
      unexpected(error, ex) {
        reported.push(`${(error as Error).message}:${ex.path}`);
        return shaper.unexpected(error, ex);
      },
    };
    const thrown: Stage = () => {
      throw new Error('sync');
    };
    const rejected: Stage = async () => {
      throw new Error('async');
    };
    const plugins: GatewayPlugin[] = [thrown, tag('x-a'), rejected].map((stage, i) => ({ name: `p${i}`, stages: { start: stage } }));
    const headers = new Pipeline(plugins, reporting).commonHeaders(exchange());
    expect(headers['x-a']).toBe('yes');
    await new Promise((resolve) => setImmediate(resolve)); // the rejection's handler has run
    expect(reported).toEqual(['sync:/icons', 'async:/icons']);
  });
});
