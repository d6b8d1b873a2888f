// A gateway inside Yoga (Mesh's server): its plugins' envelop and Yoga plugins join Mesh's, the
// served schema's envelope reaches the gateway, and requests that reach Yoga without going
// through the node:http front (under `mesh dev` or `mesh start`) run the same pipeline in
// Yoga's hooks, so every serve mode answers the same paths alike.
import type { IncomingMessage } from 'node:http';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { useBodyLimits } from './body-limits.ts';
import { useGraphQLBounds } from './graphql-bounds.ts';
import { isBodyless, type Exchange, type GatewayResponse, type RequestCarrier } from './pipeline/exchange.ts';
import type { Pipeline } from './pipeline/pipeline.ts';
import type { Envelope, GatewayPlugin } from './pipeline/plugin.ts';
import type { ServerOptions } from './server-options.ts';

/** What the bridge needs of a gateway (gateway.ts). */
export interface BridgedGateway {
  readonly plugins: readonly GatewayPlugin[];
  readonly pipeline: Pipeline;
  readonly serverOptions: ServerOptions;
  bind(envelope: Envelope): void;
  exchangeOf(carrier: RequestCarrier): Exchange | undefined;
  carryExchange(previous: Request, next: Request): void;
  exchangeFromFetch(request: Request, req?: IncomingMessage): Exchange;
}

function toFetchResponse(response: GatewayResponse, method: string): Response {
  const body = isBodyless(method, response.status) ? null : typeof response.body === 'string' ? response.body : new Uint8Array(response.body);
  return new Response(body, { status: response.status, headers: response.headers });
}

export function useGatewayInYoga(gateway: BridgedGateway): YogaPlugin {
  /** Exchanges this plugin made (the front completes its own). */
  const madeHere = new WeakSet<Exchange>();
  const nodeRequestOf = (serverContext: unknown) => (serverContext as { req?: IncomingMessage } | undefined)?.req;
  return {
    onPluginInit({ addPlugin }) {
      for (const plugin of gateway.plugins) for (const yogaPlugin of plugin.yoga ?? []) addPlugin(yogaPlugin);
      // After the pipeline (this plugin's onRequest): a body is read only for an admitted caller.
      addPlugin(
        useBodyLimits(gateway.serverOptions, {
          shape(refusal, carrier) {
            const exchange = gateway.exchangeOf(carrier);
            return exchange ? gateway.pipeline.finish(refusal, exchange) : refusal;
          },
          replaced: (previous, next) => gateway.carryExchange(previous, next),
          unexpected: (error, carrier) => gateway.pipeline.fail(error, gateway.exchangeOf(carrier) ?? gateway.exchangeFromFetch(carrier.request!, carrier.req)),
        }),
      );
      addPlugin(
        useGraphQLBounds(gateway.serverOptions, {
          shape(refusal, carrier) {
            const exchange = gateway.exchangeOf(carrier);
            return exchange ? gateway.pipeline.finish(refusal, exchange) : refusal;
          },
          describe(carrier) {
            const exchange = gateway.exchangeOf(carrier);
            return exchange ? { requestId: exchange.requestId, ip: exchange.ip } : {};
          },
        }),
      );
    },
    onYogaInit({ yoga }) {
      gateway.bind(yoga.getEnveloped);
    },
    async onRequest({ request, serverContext, endResponse }) {
      const req = nodeRequestOf(serverContext);
      if (gateway.exchangeOf({ req, request })) return; // the front ran the pipeline and passed it on
      const exchange = gateway.exchangeFromFetch(request, req);
      madeHere.add(exchange);
      const response = await gateway.pipeline.run(exchange);
      if (response) endResponse(toFetchResponse(response, exchange.method));
    },
    onResponse({ request, response, serverContext }) {
      const exchange = gateway.exchangeOf({ req: nodeRequestOf(serverContext), request });
      if (!exchange) return;
      for (const [name, value] of Object.entries(exchange.responseHeaders)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
      if (madeHere.has(exchange)) gateway.pipeline.complete(exchange, response.status);
    },
  };
}
