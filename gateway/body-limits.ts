// Request bodies, bounded (issue 11, item 4). A GraphQL request needs a few kilobytes, yet Yoga
// reads any body under 25 MB whole, then JSON-parses it and copies its variables: four 24 MB
// bodies at once took `npm start` (192 MB of heap) down. Here each body is capped
// (`maxBodyBytes`: 413, refused on its Content-Length before a byte is read, or as soon as a
// chunked body goes over) and the bytes held by all requests together are bounded
// (`maxBodyBytesInFlight`: 503 with Retry-After), from the first byte read until the request's
// response ends. It is a Yoga plugin, so it guards /graphql in every serve mode; it runs after
// the pipeline, so a body is only read for a caller that is authenticated and within its limit.
// Both refusals close the connection, which saves reading the rest; `shape` gives them the body
// and headers the gateway gives every error on /graphql.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { GatewayResponse, RequestCarrier } from './pipeline/exchange.ts';
import { errorResponse } from './pipeline/responses.ts';
import type { ServerOptions } from './server-options.ts';

export type BodyLimits = Pick<ServerOptions, 'maxBodyBytes' | 'maxBodyBytesInFlight'>;

/** Bytes of request bodies held at once, by all requests together. */
class BodyBudget {
  private held = 0;

  constructor(private readonly capacity: number) {}

  take(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/** One request's share of the budget, given back once, whichever end comes first. */
class Share {
  private bytes = 0;

  constructor(private readonly budget: BodyBudget) {}

  grow(bytes: number): boolean {
    if (!this.budget.take(bytes)) return false;
    this.bytes += bytes;
    return true;
  }

  readonly release = (): void => {
    this.budget.give(this.bytes);
    this.bytes = 0;
  };
}

type Outcome = { body: Uint8Array<ArrayBuffer> } | { refusal: GatewayResponse };

/** Reads `stream` into one buffer, growing `share` as bytes arrive; a refusal when a limit is passed. */
async function readWithin(stream: ReadableStream<Uint8Array<ArrayBuffer>>, limits: BodyLimits, declared: number, share: Share): Promise<Outcome> {
  const reader = stream.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
      try {
        next = await reader.read();
      } catch {
        // The client went away or the connection was cut (a request timeout): the stream fails
        // with whatever the server's adapter says. Nobody is left to answer; the 400 is for the
        // access log and the metrics.
        return { refusal: errorResponse(400, 'The request body could not be read', refusalHeaders) };
      }
      const { done, value } = next;
      if (done) break;
      received += value.byteLength;
      if (received > limits.maxBodyBytes) return { refusal: tooLarge(limits.maxBodyBytes) };
      // Bytes beyond a declared length (a chunked body declares none) are taken as they come.
      if (received > declared && !share.grow(received - Math.max(declared, received - value.byteLength))) return { refusal: busy() };
      chunks.push(value);
    }
  } finally {
    // Stop reading without cancelling: cancelling would destroy the socket before the refusal is written.
    reader.releaseLock();
  }
  return { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received) };
}

const refusalHeaders = { connection: 'close' };

function tooLarge(maxBodyBytes: number): GatewayResponse {
  return errorResponse(413, `The request body is larger than ${maxBodyBytes} bytes`, refusalHeaders);
}

function busy(): GatewayResponse {
  return errorResponse(503, 'The server is receiving too many request bodies at once; retry shortly', { ...refusalHeaders, 'retry-after': '1' });
}


/** What the body limits need of the gateway that carries them. */
export interface BodyLimitsHost {
  /** A refusal in the form the request's destination speaks, with the exchange's headers. */
  shape(refusal: GatewayResponse, carrier: RequestCarrier): GatewayResponse;
  /** The buffered request replaces `previous`: it carries the same exchange from now on. */
  replaced(previous: Request, next: Request): void;
  /** An error nobody expected while reading the body: logged, and the shaped 500 with the exchange's headers. */
  unexpected(error: unknown, carrier: RequestCarrier): GatewayResponse;
}

export function useBodyLimits(limits: BodyLimits, host: BodyLimitsHost): YogaPlugin {
  const budget = new BodyBudget(limits.maxBodyBytesInFlight);
  const releases = new WeakMap<Request, () => void>();

  return {
    async onRequest({ request, setRequest, endResponse, fetchAPI, serverContext }) {
      if (!request.body) return;
      const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
      const answer = ({ status, headers, body }: GatewayResponse) => endResponse(new fetchAPI.Response(String(body), { status, headers }));
      const refuse = (refusal: GatewayResponse) => answer(host.shape(refusal, { req, request }));
      const length = request.headers.get('content-length');
      // A malformed Content-Length is Yoga's to refuse (400); node:http refuses most of them first.
      const declared = length !== null && /^\d+$/.test(length) ? Number(length) : 0;
      if (declared > limits.maxBodyBytes) return refuse(tooLarge(limits.maxBodyBytes));

      const share = new Share(budget);
      if (!share.grow(declared)) return refuse(busy());
      (serverContext as { res?: ServerResponse }).res?.once('close', share.release);
      let outcome: Outcome;
      try {
        outcome = await readWithin(request.body, limits, declared, share);
      } catch (error) {
        // Not the client's doing (readWithin answers for the stream): a bug, logged and a 500.
        share.release();
        return answer(host.unexpected(error, { req, request }));
      }
      if ('refusal' in outcome) {
        share.release();
        return refuse(outcome.refusal);
      }
      const buffered = new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body: outcome.body, signal: request.signal });
      releases.set(buffered, share.release);
      host.replaced(request, buffered);
      setRequest(buffered);
    },
    onResponse({ request }) {
      releases.get(request)?.();
    },
  };
}
