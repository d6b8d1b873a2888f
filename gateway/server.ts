// The gateway process: GraphQL Mesh built from .meshrc.yaml by Mesh's own config loader (its
// sources and our plugins), served behind a node:http front. The front runs the gateway
// pipeline that the plugins registered (routing, auth, limits, REST routes) directly on the
// socket, so REST requests never pay for Mesh's two Fetch-API layers; what the pipeline passes
// on (/graphql) goes to Mesh's own HTTP handler, where the same plugins' context applies.
// `mesh dev` and `mesh start` serve the same config without this front, through the plugins'
// Yoga hooks, at about a fifth of the speed.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type { findAndParseConfig as FindAndParseConfig } from '@graphql-mesh/cli';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { getMesh, type MeshInstance } from '@graphql-mesh/runtime';
import { handleImport } from '@graphql-mesh/utils';
import type { Database } from '../prisma/database.ts';
import { ConfigError } from '../lib/config-validation.ts';
import { exchangeFromNode, isBodyless, type Exchange, type GatewayResponse } from './pipeline/exchange.ts';
import { errorResponse, pipeline } from './pipeline/pipeline.ts';
import { rememberPassedOn } from './pipeline/yoga-bridge.ts';
import { currentRestRoutes } from './plugins/rest-routes.ts';
import { currentRateLimitStore } from './plugins/rate-limit.ts';
import { HEALTH_PATH, healthResponse, READY_PATH, readinessResponse } from './health.ts';
import { provideDatabase } from './runtime.ts';
import { bundledModule } from './bundled-modules.ts';
import { metrics, METRICS_PATH } from './observability/metrics.ts';
import { recordProbe, recordRequest } from './observability/request-log.ts';
import { logger } from '../lib/logger.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export interface Gateway {
  server: Server;
  mesh: MeshInstance;
  close(): Promise<void>;
}

/**
 * Mesh's own config loader. `@graphql-mesh/cli`'s entry also loads every CLI command (yargs,
 * the TypeScript compiler for `mesh build` artifacts): 1.7 s and 50 MB more at start than its
 * config module alone, which is all a server needs. The cli version is pinned in package.json;
 * if a new one moves the module, the entry is used instead.
 */
function meshConfigLoader(): typeof FindAndParseConfig {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@graphql-mesh/cli');
  try {
    return (require(join(dirname(entry), 'config.js')) as { findAndParseConfig: typeof FindAndParseConfig }).findAndParseConfig;
  } catch {
    return (require(entry) as { findAndParseConfig: typeof FindAndParseConfig }).findAndParseConfig;
  }
}

/**
 * Mesh from the .meshrc.yaml in `dir` (default: GATEWAY_CONFIG_DIR, else the project), through
 * Mesh's own loader. Packages (our plugins among them) resolve from the project either way.
 * The REST routes' operations are checked against the schema here too, so that every config
 * mistake is reported before any slow work.
 */
export async function loadMesh(dir = configDir(), configName?: string): Promise<{ mesh: MeshInstance; serve: unknown }> {
  const require = createRequire(join(PROJECT_ROOT, 'package.json'));
  const importFn = (id: string) => (bundledModule(id) ?? import(pathToFileURL(isAbsolute(id) ? id : require.resolve(id)).href)).then(handleImport);
  const config = await meshConfigLoader()({ dir, importFn, ...(configName ? { configName } : {}) });
  const mesh = await getMesh(config);
  const routes = currentRestRoutes();
  if (!routes) throw new ConfigError(`${join(dir, '.meshrc.yaml')} lists no @icon-catalogue/gateway/rest-routes plugin`);
  routes.bind(mesh.schema);
  return { mesh, serve: config.config.serve };
}

export function configDir(env = process.env): string {
  return env.GATEWAY_CONFIG_DIR ? resolve(env.GATEWAY_CONFIG_DIR) : PROJECT_ROOT;
}

export function writeResponse(res: ServerResponse, method: string, response: GatewayResponse): void {
  const bodyless = isBodyless(method, response.status);
  // A flat [name, value, ...] list is the cheapest form of headers for node:http to write.
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name]!);
  if (!bodyless) headers.push('content-length', String(Buffer.byteLength(response.body)));
  res.writeHead(response.status, headers);
  res.end(bodyless ? undefined : response.body);
}

function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Prometheus metrics. Open like /healthz unless METRICS_TOKEN is set, in which case they need
 * `Authorization: Bearer <METRICS_TOKEN>` (or block /metrics at the load balancer).
 */
async function metricsResponse(req: IncomingMessage, token = process.env.METRICS_TOKEN): Promise<GatewayResponse> {
  if (token && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
    return errorResponse(401, 'The metrics need Authorization: Bearer <METRICS_TOKEN>');
  }
  const { contentType, body } = await metrics.exposition();
  return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body };
}

export type LoadedMesh = Awaited<ReturnType<typeof loadMesh>>;

/** Serves `loaded` (Mesh from .meshrc.yaml; load it first, so a bad config fails before any slow work). */
export async function createGateway({ db, loaded, dir }: { db: Database; loaded?: LoadedMesh; dir?: string }): Promise<Gateway> {
  provideDatabase(db);
  const { mesh, serve } = loaded ?? (await loadMesh(dir));
  const meshHandler = createMeshHTTPHandler<Record<string, unknown>>({
    baseDir: dir ?? configDir(),
    getBuiltMesh: () => Promise.resolve(mesh),
    rawServeConfig: serve as never,
  });

  async function answerProbe(req: IncomingMessage, res: ServerResponse, probe: string, startedAt: number): Promise<void> {
    const method = req.method ?? 'GET';
    const response =
      probe === HEALTH_PATH ? healthResponse() : probe === READY_PATH ? await readinessResponse(db, currentRateLimitStore()) : await metricsResponse(req);
    writeResponse(res, method, response);
    recordProbe(probe, method, response.status, startedAt);
  }

  async function answerLater(req: IncomingMessage, res: ServerResponse, exchange: Exchange, pending: ReturnType<typeof pipeline.run>, startedAt: number): Promise<void> {
    try {
      const response = await pending;
      if (response) return writeResponse(res, exchange.method, response);
      rememberPassedOn(req, exchange);
      for (const [name, value] of Object.entries(exchange.responseHeaders)) res.setHeader(name, value);
      await meshHandler(req, res);
    } finally {
      recordRequest(exchange, res.headersSent ? res.statusCode : 500, startedAt);
    }
  }

  /** Answers without a promise when the pipeline does (cache hits, refusals); else returns one. */
  function handle(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const startedAt = performance.now();
    const exchange = exchangeFromNode(req);
    const { path } = exchange;
    if (path === HEALTH_PATH || path === READY_PATH || path === METRICS_PATH) return answerProbe(req, res, path, startedAt);
    const outcome = pipeline.run(exchange);
    if (outcome === undefined || outcome instanceof Promise) return answerLater(req, res, exchange, outcome, startedAt);
    try {
      writeResponse(res, exchange.method, outcome);
    } finally {
      recordRequest(exchange, res.headersSent ? res.statusCode : 500, startedAt);
    }
    return undefined;
  }

  function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    logger.error({ msg: 'unhandled error', error: (error as Error)?.message, stack: (error as Error)?.stack });
    if (!res.headersSent) writeResponse(res, req.method ?? 'GET', errorResponse(500, 'Internal server error'));
    else res.destroy();
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res)?.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
    mesh,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      });
      mesh.destroy();
    },
  };
}

export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : port);
    });
  });
}
