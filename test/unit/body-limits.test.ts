// What the body limits answer when a body cannot be read (gateway/body-limits.ts): the client's
// stream failing is a 400 the client caused; anything else going wrong while reading is a bug,
// which must reach the gateway's unexpected-error path (logged, a 500), not pass as a 400.
import { describe, expect, it } from 'vitest';
import { useBodyLimits, type BodyLimitsHost } from '../../gateway/body-limits.ts';
import type { GatewayResponse } from '../../gateway/pipeline/exchange.ts';
import { errorResponse } from '../../gateway/pipeline/responses.ts';

type OnRequest = (payload: unknown) => Promise<void>;

/** Runs the plugin's onRequest for a POST whose body is `body`: the response it ended with, and what the host was asked. */
async function answerTo(body: ReadableStream<unknown>) {
  const asked: string[] = [];
  const host: BodyLimitsHost = {
    shape(refusal) {
      asked.push(`shape ${refusal.status}`);
      return refusal;
    },
    replaced: () => void asked.push('replaced'),
    unexpected(error) {
      asked.push(`unexpected: ${(error as Error).message}`);
      return errorResponse(500, 'internal') as GatewayResponse;
    },
  };
  const plugin = useBodyLimits({ maxBodyBytes: 1_000, maxBodyBytesInFlight: 10_000 }, host);
  const request = { body, url: 'http://gateway.test/graphql', method: 'POST', headers: new Headers(), signal: new AbortController().signal };
  let ended: Response | undefined;
  await (plugin.onRequest as unknown as OnRequest)({ request, setRequest: () => {}, endResponse: (response: Response) => (ended = response), fetchAPI: { Request, Response }, serverContext: {} });
  return { status: ended?.status, asked };
}

/** A stream of the one chunk `chunk`. */
function streamOf(chunk: unknown): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('body limits: a body that cannot be read', () => {
  it('is a 400 when the client\'s stream fails (the client went away)', async () => {
    const failing = new ReadableStream({ pull: (controller) => controller.error(new Error('aborted')) });
    expect(await answerTo(failing)).toEqual({ status: 400, asked: ['shape 400'] });
  });

  it('is an unexpected error (logged, 500) when reading it fails for any other reason', async () => {
    // A chunk the reading code cannot handle stands for a bug in it.
    const broken = {
      get byteLength(): number {
        throw new Error('a bug while reading');
      },
    };
    const stream = streamOf(broken);
    expect(await answerTo(stream)).toEqual({ status: 500, asked: ['unexpected: a bug while reading'] });
  });

  it('reads a body within the limits and hands the buffered request on', async () => {
    const stream = streamOf(new TextEncoder().encode('{"query":"{ ok }"}'));
    expect(await answerTo(stream)).toEqual({ status: undefined, asked: ['replaced'] });
  });
});
