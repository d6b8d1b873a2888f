// Runs the gateway pipeline inside Yoga, for requests that reach Mesh's server without going
// through our node:http front (under `mesh dev` or plain `mesh start`), and finds the exchange
// of a GraphQL context either way.
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { exchangeFromFetch, isBodyless, type Exchange, type GatewayResponse } from './exchange.ts';
import { pipeline } from './pipeline.ts';
import { processSingleton } from '../../lib/process-singleton.ts';

const { byNodeRequest, byFetchRequest } = processSingleton('exchanges', () => ({
  byNodeRequest: new WeakMap<IncomingMessage, Exchange>(),
  byFetchRequest: new WeakMap<Request, Exchange>(),
}));

/** The front ran the pipeline for this request and passes it on to Mesh. */
export function rememberPassedOn(req: IncomingMessage, exchange: Exchange): void {
  byNodeRequest.set(req, exchange);
}

/** The exchange of a request, whether the front (node request) or Yoga (fetch Request) ran it. */
export function exchangeFor(req: IncomingMessage | undefined, request: Request | undefined): Exchange | undefined {
  return (req && byNodeRequest.get(req)) ?? (request && byFetchRequest.get(request));
}

function nodeRequestOf(serverContext: unknown): IncomingMessage | undefined {
  return (serverContext as { req?: IncomingMessage } | undefined)?.req;
}

export function exchangeOf(context: Record<string, unknown>): Exchange | undefined {
  return exchangeFor(context.req as IncomingMessage | undefined, context.request as Request | undefined);
}

export function toFetchResponse(response: GatewayResponse, method: string): Response {
  const body = isBodyless(method, response.status) ? null : typeof response.body === 'string' ? response.body : new Uint8Array(response.body);
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The Yoga side of every gateway plugin: the same hooks, run once per request. */
export function usePipelineInYoga(): Plugin {
  return {
    async onRequest({ request, serverContext, endResponse }) {
      const req = nodeRequestOf(serverContext);
      if (exchangeFor(req, request)) return;
      const exchange = exchangeFromFetch(request, req?.socket?.remoteAddress);
      byFetchRequest.set(request, exchange);
      const response = await pipeline.run(exchange);
      if (response) endResponse(toFetchResponse(response, exchange.method));
    },
    onResponse({ request, response, serverContext }) {
      const exchange = exchangeFor(nodeRequestOf(serverContext), request);
      if (!exchange) return;
      for (const [name, value] of Object.entries(exchange.responseHeaders)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
    },
  };
}
