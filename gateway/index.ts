// The gateway as GraphQL Mesh loads it: .meshrc.yaml lists `@icon-catalogue/gateway` (this
// workspace package) with the gateway's plugins in order, and Mesh calls the default export
// with those options plus helpers of its own. Under `mesh dev` / `mesh start` the gateway
// opens the database named by the environment on first use; the node:http front
// (front/load-mesh.ts) makes its own factory with `meshPluginFactory`, handing the database
// it opened and taking the gateway it gets back.
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { openServingDatabase, type Database } from '../prisma/database.ts';
import { createGateway, type Gateway, type GatewayHost } from './gateway.ts';

/** A Mesh plugin factory for gateways served by `host`; `onBuilt` receives each gateway Mesh builds. */
export function meshPluginFactory(host: GatewayHost, onBuilt: (gateway: Gateway) => void = () => {}) {
  return (meshOptions: Record<string, unknown>): YogaPlugin => {
    // Mesh adds its own helpers to every plugin's options; the gateway validates only its own.
    const { logger: _logger, cache: _cache, pubsub: _pubsub, baseDir: _baseDir, importFn: _importFn, ...options } = meshOptions;
    const gateway = createGateway(options, host);
    onBuilt(gateway);
    return gateway.yogaPlugin;
  };
}

/** The database named by the environment (DATABASE_URL, else the embedded directory), opened once, on first use. */
function databaseFromEnvironment(): () => Promise<Database> {
  let opened: Promise<Database> | undefined;
  return () => (opened ??= openServingDatabase());
}

export default meshPluginFactory({ database: databaseFromEnvironment() });
