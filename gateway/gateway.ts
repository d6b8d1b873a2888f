// A gateway: the plugins .meshrc.yaml lists under `@icon-catalogue/gateway`, built in that
// order with the services they share (the database, metrics, the error shaper, the exchange of
// a request), and one pipeline made of their stages. Nothing here is global: two gateways with
// different configs live side by side in one process. Whoever serves the gateway (the node:http
// front, or Yoga under `mesh dev` / `mesh start`, through `yogaPlugin`) hands it the served
// schema's envelope (`bind`) and runs requests through `pipeline`.
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { validateConfig } from '../lib/config-validation.ts';
import type { Database } from '../prisma/database.ts';
import { databaseUnavailability } from '../prisma/unavailable.ts';
import { GatewayMetrics } from './metrics/metrics.ts';
import { gatewayOptions } from './options.ts';
import { exchangeFromFetch, exchangeFromNode, type Exchange, type RequestCarrier } from './pipeline/exchange.ts';
import { Pipeline } from './pipeline/pipeline.ts';
import { describeApi } from './pipeline/api-description.ts';
import type { Envelope, ErrorShaper, GatewayPlugin, GatewayServices } from './pipeline/plugin.ts';
import { defaultErrorShaper } from './plugins/error-shaping/index.ts';
import { PLUGIN_FACTORIES } from './plugins/index.ts';
import type { ServerOptions } from './server-options.ts';
import { createKeyRevocations } from './key-revocations.ts';
import { ResourcePool } from './shared-resources.ts';
import { useGatewayInYoga } from './yoga-bridge.ts';

/** The name .meshrc.yaml lists the gateway under (the workspace package gateway/package.json). */
export const GATEWAY_PLUGIN_NAME = '@icon-catalogue/gateway';

/** What the process serving a gateway provides. */
export interface GatewayHost {
  /** The catalogue database; called on first use, so a gateway that never serves never opens it. */
  database(): Promise<Database>;
  env?: NodeJS.ProcessEnv;
  /**
   * What gateways of this process share across a config reload (shared-resources.ts); a gateway
   * without one shares nothing and closes all it made.
   */
  shared?: ResourcePool;
}

export interface Gateway {
  readonly pipeline: Pipeline;
  readonly plugins: readonly GatewayPlugin[];
  readonly metrics: GatewayMetrics;
  /** The limits of the HTTP server that carries the gateway (the `server:` section). */
  readonly serverOptions: ServerOptions;
  /** Files and folders the plugins' config reads besides .meshrc.yaml (what a reload re-reads). */
  readonly watchedPaths: readonly string[];
  /** The Yoga plugin that carries this gateway into Mesh's server. */
  readonly yogaPlugin: YogaPlugin;
  /** A new exchange for a request, known to the gateway's plugins from then on. */
  exchangeFromNode(req: IncomingMessage): Exchange;
  exchangeFromFetch(request: Request, req?: IncomingMessage): Exchange;
  exchangeOf(carrier: RequestCarrier): Exchange | undefined;
  /** `next` (a copy of a request, such as one with its body read) carries `previous`'s exchange from now on. */
  carryExchange(previous: Request, next: Request): void;
  /** Hands the plugins the served schema's envelope, once (ConfigError when their config does not fit it). */
  bind(envelope: Envelope): void;
  /** Connects what the plugins need, waiting at most `timeoutMs` for each. */
  start(timeoutMs?: number): Promise<void>;
  /** From now on the readiness probe fails: the server is draining before it stops. */
  beginDraining(): void;
  close(): Promise<void>;
}

export function createGateway(rawOptions: unknown, host: GatewayHost): Gateway {
  const where = ['plugins', GATEWAY_PLUGIN_NAME] as const;
  const { plugins: entries, server: serverOptions, trustedProxies } = validateConfig(gatewayOptions, rawOptions, '.meshrc.yaml', where);
  // Each server request object carries its exchange under a symbol of this gateway's own.
  const EXCHANGE = Symbol('the gateway exchange of this request');
  const lease = (host.shared ?? new ResourcePool()).lease();
  // One set of series for the process: a reload must not reset the counters Prometheus reads.
  const metrics = lease.keep('metrics', null, () => new GatewayMetrics());
  const plugins: GatewayPlugin[] = [];
  let shaper: ErrorShaper = defaultErrorShaper();
  let bound = false;
  let draining = false;

  type Carried = { [EXCHANGE]?: Exchange };
  const track = (exchange: Exchange) => {
    const { req, request } = exchange.carrier;
    if (req) (req as Carried)[EXCHANGE] = exchange;
    if (request) (request as Carried)[EXCHANGE] = exchange;
    return exchange;
  };
  const exchangeOf = ({ req, request }: RequestCarrier) => (req as Carried | undefined)?.[EXCHANGE] ?? (request as Carried | undefined)?.[EXCHANGE];

  const env = host.env ?? process.env;
  const keyRevocations = createKeyRevocations(env, lease.keep);
  const services: GatewayServices = {
    database: host.database,
    metrics,
    env,
    trustedProxies,
    keyRevocations,
    // Plugins are built before the error-shaping plugin may be: they call the shaper in force.
    errors: {
      unexpected: (error, exchange) => shaper.unexpected(error, exchange),
      fromGraphQL: (errors, exchange) => shaper.fromGraphQL(errors, exchange),
      forDestination: (response, exchange) => shaper.forDestination(response, exchange),
    },
    exchangeOf,
    guarded: (exchange) => plugins.some((plugin) => plugin.guards?.(exchange) ?? false),
    keep: lease.keep,
    isDraining: () => draining,
    readinessChecks: () => ({
      database: async () => {
        try {
          await (await host.database()).prisma.$queryRawUnsafe('SELECT 1');
        } catch (error) {
          // Refused because the queue is full: this process is loaded, the database answers.
          if (databaseUnavailability(error)?.reason !== 'busy') throw error;
        }
        return true;
      },
      ...Object.assign({}, ...plugins.map((plugin) => plugin.readiness ?? {})),
    }),
  };

  try {
    entries.forEach((entry, index) => {
      const [name, options] = Object.entries(entry)[0]!;
      plugins.push(PLUGIN_FACTORIES[name]!(options, services, [...where, 'plugins', index, name]));
    });
  } catch (error) {
    // A config a reload rejects: what its plugins made is let go, what the serving gateway holds stays.
    void closePlugins(plugins).finally(() => lease.release());
    throw error;
  }
  shaper = plugins.find((plugin) => plugin.errors)?.errors ?? shaper;
  const api = describeApi(plugins);

  const served: Omit<Gateway, 'yogaPlugin'> = {
    pipeline: new Pipeline(plugins, services.errors),
    plugins,
    metrics,
    serverOptions,
    watchedPaths: plugins.flatMap((plugin) => plugin.watches ?? []),
    exchangeFromNode: (req) => track(exchangeFromNode(req, trustedProxies)),
    exchangeFromFetch: (request, req) => track(exchangeFromFetch(request, req, trustedProxies)),
    exchangeOf,
    carryExchange(previous, next) {
      const exchange = (previous as Carried)[EXCHANGE];
      if (exchange) (next as Carried)[EXCHANGE] = exchange;
    },
    bind(envelope) {
      // Once: the front binds Mesh's envelope at start, and Yoga reports its own when it is made.
      if (bound) return;
      for (const plugin of plugins) plugin.bind?.(envelope, api);
      bound = true;
    },
    async start(timeoutMs = 2_000) {
      await Promise.all([...plugins.map((plugin) => plugin.start?.(timeoutMs)), Promise.race([keyRevocations.connect(), delay(timeoutMs, undefined, { ref: false })])]);
    },
    beginDraining() {
      draining = true;
    },
    async close() {
      keyRevocations.close();
      await closePlugins(plugins);
      await lease.release();
    },
  };
  return { ...served, yogaPlugin: useGatewayInYoga(served) };
}

async function closePlugins(plugins: readonly GatewayPlugin[]): Promise<void> {
  await Promise.all(plugins.map((plugin) => plugin.close?.()));
}
