// Runs the gateway pipeline inside Yoga, for requests that reach Mesh's server without going
// through our node:http front (under `mesh dev` or plain `mesh start`), and finds the exchange
// of a GraphQL context either way.
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { exchangeFromFetch, type Exchange, type GatewayResponse } from './exchange.ts';
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

export function exchangeOf(context: Record<string, unknown>): Exchange | undefined {
  const req = context.req as IncomingMessage | undefined;
  const request = context.request as Request | undefined;
  return (req && byNodeRequest.get(req)) ?? (request && byFetchRequest.get(request));
}

export function toFetchResponse(response: GatewayResponse, method: string): Response {
  const bodyless = method === 'HEAD' || response.status === 304;
  return new Response(bodyless ? null : response.body, { status: response.status, headers: response.headers });
}

/** The Yoga side of every gateway plugin: the same hooks, run once per request. */
export function usePipelineInYoga(): Plugin {
  return {
    async onRequest({ request, serverContext, endResponse }) {
      const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
      if ((req && byNodeRequest.has(req)) || byFetchRequest.has(request)) return;
      const exchange = exchangeFromFetch(request, req?.socket?.remoteAddress);
      byFetchRequest.set(request, exchange);
      const response = await pipeline.run(exchange);
      if (response) endResponse(toFetchResponse(response, exchange.method));
    },
    onResponse({ request, response, serverContext }) {
      const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
      const exchange = (req && byNodeRequest.get(req)) ?? byFetchRequest.get(request);
      if (!exchange) return;
      for (const [name, value] of Object.entries(exchange.responseHeaders)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
    },
  };
}
