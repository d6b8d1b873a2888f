// What operators watch, served by the gateway itself so every serve mode offers the same paths:
// liveness and readiness probes, Prometheus metrics (open unless METRICS_TOKEN is set, then
// `Authorization: Bearer <METRICS_TOKEN>`; or block the path at the load balancer), and an
// access-log line and a metrics observation for every request. Probes and metrics are answered
// before auth (phase route), without a key and without counting against a limit.
import { timingSafeEqual, hash } from 'node:crypto';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { recordRequest } from './access-log.ts';
import { observabilityOptions } from './options.ts';
import { drainingResponse, healthResponse, readinessResponse } from './probes.ts';

function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(hash('sha256', presented, 'buffer'), hash('sha256', expected, 'buffer'));
}

export const useObservability: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { healthPath, readyPath, metricsPath } = parsePluginOptions(observabilityOptions, rawOptions, where);
  const token = services.env.METRICS_TOKEN || undefined;

  async function metricsResponse(exchange: Exchange): Promise<GatewayResponse> {
    if (token && !sameSecret(exchange.header('authorization') ?? '', `Bearer ${token}`)) {
      return errorResponse(401, 'The metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    const { contentType, body } = await services.metrics.exposition();
    return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body };
  }

  const answers = new Map<string, (exchange: Exchange) => GatewayResponse | Promise<GatewayResponse>>([
    [healthPath, healthResponse],
    [readyPath, () => (services.isDraining() ? drainingResponse() : readinessResponse(services.readinessChecks()))],
    [metricsPath, metricsResponse],
  ]);

  return {
    name: 'observability',
    stages: {
      route(exchange) {
        const probe = answers.get(exchange.path);
        if (!probe) return undefined;
        exchange.destination = { kind: 'probe', route: exchange.path };
        return methodNotAllowed(exchange, READ_METHODS) ?? probe(exchange);
      },
    },
    onComplete: (exchange, status) => recordRequest(services.metrics, exchange, status),
  };
};
