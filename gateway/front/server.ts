// The node:http front: a thin host for one gateway. It makes each request's exchange, runs the
// gateway's pipeline on the socket (REST, probes, metrics, refusals never pay for Mesh's two
// Fetch-API layers), writes what the pipeline answers, and passes everything else (/graphql)
// to Mesh's own HTTP handler, where the gateway's Yoga plugin finds the same exchange.
// It also bounds what one client may cost (the gateway's `server:` options): time to send a
// request, connections open (in all and per address: connections.ts), the JSON error body for
// what Node refuses itself, a warning when accept() fails for want of file descriptors, and a
// drain in bounded time on stop.
import { closeSync, openSync } from 'node:fs';
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { devNull } from 'node:os';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { logger } from '../../lib/logger.ts';
import { whenReady } from '../../lib/maybe-promise.ts';
import { isBodyless, type Exchange, type GatewayResponse } from '../pipeline/exchange.ts';
import { errorResponse } from '../pipeline/responses.ts';
import type { ServerOptions } from '../server-options.ts';
import { answerClientError } from './client-errors.ts';
import { Connections } from './connections.ts';
import { Drain } from './drain.ts';
import type { LoadedMesh } from './load-mesh.ts';

export interface Front {
  server: Server;
  /**
   * Drains, then stops: readiness fails, no new connections, every response closes its
   * connection, idle ones close at once, and what is still open after `drainTimeoutMs` is cut.
   */
  close(): Promise<void>;
  /**
   * Serves `next` from the next request on (a config reload); connections stay open. Resolves
   * with the mesh served until now once the requests it had in flight are finished, or after
   * its `drainTimeoutMs` (then `late` counts those still unfinished); `waited`: those in flight at the swap.
   */
  swap(next: LoadedMesh): Promise<{ previous: LoadedMesh; waited: number; late: number }>;
}

/**
 * What the log and metrics record for a request whose client closed the connection before the
 * answer was written (nginx's code): the client gave up, nothing failed on our side.
 */
export const CLIENT_CLOSED_REQUEST = 499;

export function writeResponse(res: ServerResponse, method: string, response: GatewayResponse): void {
  const bodyless = isBodyless(method, response.status);
  // A flat [name, value, ...] list is the cheapest form of headers for node:http to write.
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name]!);
  if (!bodyless) headers.push('content-length', String(Buffer.byteLength(response.body)));
  res.writeHead(response.status, headers);
  res.end(bodyless ? undefined : response.body);
}

/**
 * How often Node looks for requests past headersTimeout or requestTimeout (its default, 30 s,
 * would let a slow client keep a socket for that much longer than configured).
 */
function checkingInterval({ headersTimeoutMs }: ServerOptions): number {
  return Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4)));
}

/** `log` at most once per `ms` (a flood of refusals is one line a minute, and a metric). */
function throttled(ms: number, log: () => void): () => void {
  let last = -Infinity;
  return () => {
    const now = performance.now();
    if (now - last < ms) return;
    last = now;
    log();
  };
}

/** One loaded mesh as the front serves it: its handlers, and the requests it has in flight. */
function servingOf(loaded: LoadedMesh, answeredOnSocket: WeakMap<ServerResponse, number>) {
  const { mesh, gateway, serve, dir } = loaded;
  const { pipeline } = gateway;
  const meshHandler = createMeshHTTPHandler<Record<string, unknown>>({
    baseDir: dir,
    getBuiltMesh: () => Promise.resolve(mesh),
    // staticFiles exists only to make Mesh's own server pass `/` on (see .meshrc.yaml); the front
    // answers `/` itself, and would otherwise pay a file lookup for every GET it passes on.
    rawServeConfig: { ...(serve as object | undefined), staticFiles: undefined } as never,
  });

  /** The status a request ended with: the server's own answer on the socket, 499 when the client left first, else what was sent. */
  const statusOf = (res: ServerResponse, clientGone: boolean) =>
    answeredOnSocket.get(res) ?? (clientGone ? CLIENT_CLOSED_REQUEST : res.headersSent ? res.statusCode : 500);

  function answer(res: ServerResponse, exchange: Exchange, response: GatewayResponse): void {
    // Asked before writing: a response ended on a closed connection counts as finished.
    const clientGone = res.destroyed;
    try {
      writeResponse(res, exchange.method, response);
    } finally {
      pipeline.complete(exchange, statusOf(res, clientGone));
    }
  }

  async function passOn(req: IncomingMessage, res: ServerResponse, exchange: Exchange): Promise<void> {
    let clientGone = false;
    res.once('close', () => (clientGone ||= !res.writableFinished));
    try {
      for (const [name, value] of Object.entries(exchange.responseHeaders)) res.setHeader(name, value);
      await meshHandler(req, res);
    } finally {
      pipeline.complete(exchange, statusOf(res, clientGone));
    }
  }

  /** Answers without a promise when the pipeline does (cache hits, refusals); else returns one. */
  function handle(req: IncomingMessage, res: ServerResponse) {
    const exchange = gateway.exchangeFromNode(req);
    // node:http's own refusal of a missing Host is a bare 400 (requireHostHeader is off below).
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && exchange.header('host') === undefined) {
      const refusal = errorResponse(400, 'An HTTP/1.1 request needs a Host header', { connection: 'close' });
      Object.assign(refusal.headers, pipeline.commonHeaders(exchange));
      return answer(res, exchange, refusal);
    }
    return whenReady(
      () => pipeline.run(exchange),
      (response) => (response ? answer(res, exchange, response) : passOn(req, res, exchange)),
      (error: unknown) => answer(res, exchange, pipeline.fail(error, exchange)),
    );
  }

  function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (res.headersSent) return void res.destroy();
    writeResponse(res, req.method ?? 'GET', pipeline.fail(error, gateway.exchangeFromNode(req)));
  }

  // A request is this mesh's until its handler settled and its response closed: only then may
  // a mesh replaced by a reload be closed.
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const finished = () => {
    if (--inFlight === 0) idle?.();
  };
  function serveRequest(req: IncomingMessage, res: ServerResponse): void {
    inFlight++;
    let parts = 2;
    const done = () => {
      if (--parts === 0) finished();
    };
    res.once('close', done);
    whenReady(
      () => handle(req, res),
      done,
      (error: unknown) => {
        try {
          fail(req, res, error);
        } finally {
          done();
        }
      },
    );
  }
  const settled = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));
  return { loaded, serve: serveRequest, settled, inFlight: () => inFlight };
}

export function createFront(first: LoadedMesh): Front {
  /** Responses the clientError handler answered on the socket (a request that timed out while the gateway waited for it). */
  const answeredOnSocket = new WeakMap<ServerResponse, number>();
  let current = servingOf(first, answeredOnSocket);
  const { metrics } = first.gateway;
  let options = first.gateway.serverOptions;

  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingInterval(options),
      requireHostHeader: false,
    },
    (req, res) => {
      connections.started(req.socket, res);
      drain.mark(res);
      current.serve(req, res);
    },
  );
  const warnFull = throttled(60_000, () =>
    logger.warn({
      msg: `Refusing new connections: server.maxConnections (${options.maxConnections}) or server.maxConnectionsPerAddress (${options.maxConnectionsPerAddress}) are open and none is idle; counted in icon_gateway_connections_refused_total`,
    }),
  );
  const connections = new Connections(options, {
    refused() {
      metrics.connectionRefused();
      warnFull();
    },
    evicted: () => metrics.idleConnectionClosed(),
  });
  server.on('connection', (socket: Socket) => connections.admit(socket));
  const drain = new Drain(server, connections);
  metrics.countConnections(() => connections.size);

  server.on('clientError', (error: Error, socket) => {
    const { gateway } = current.loaded;
    const headers = () => gateway.pipeline.commonHeaders(gateway.exchangeFromFetch(new Request('http://front/')));
    const inProgress = connections.responseOn(socket);
    const refused = answerClientError(error, socket, inProgress, maxHeaderSize, headers);
    if (!refused) return;
    if (inProgress) answeredOnSocket.set(inProgress, refused.status);
    metrics.clientError(refused.status);
    logger.info({ msg: 'client error', status: refused.status, reason: refused.message, ip: (socket as { remoteAddress?: string }).remoteAddress ?? null });
  });

  return {
    server,
    async close() {
      current.loaded.gateway.beginDraining();
      const cut = await drain.stop(options.drainTimeoutMs);
      if (cut) logger.warn({ msg: `Cut ${cut} connection(s) still open ${options.drainTimeoutMs} ms after the drain began (server.drainTimeoutMs)` });
      current.loaded.mesh.destroy();
    },
    async swap(next) {
      const previous = current;
      const waited = previous.inFlight();
      current = servingOf(next, answeredOnSocket);
      options = next.gateway.serverOptions;
      applyServerOptions(server, options);
      connections.setLimits(options);
      let deadline: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (deadline = setTimeout(() => resolve('late'), previous.loaded.gateway.serverOptions.drainTimeoutMs)));
      const outcome = await Promise.race([previous.settled(), late]);
      clearTimeout(deadline);
      return { previous: previous.loaded, waited, late: outcome === 'late' ? previous.inFlight() : 0 };
    },
  };
}

/**
 * The `server:` options a running server takes in place (a reload); the checking interval is
 * fixed when the server is made, the body limits belong to each gateway, and the connection
 * bounds to the front's Connections.
 */
function applyServerOptions(server: Server, options: ServerOptions): void {
  server.headersTimeout = options.headersTimeoutMs;
  server.requestTimeout = options.requestTimeoutMs;
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
}

/** Why the server could not listen: one line for the operator (main.ts prints it and exits). */
export class ListenError extends Error {
  override name = 'ListenError';
}

function listenProblem(error: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  const where = `port ${port} on ${host ?? 'all interfaces'}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `Cannot listen on ${where}: the port is already in use (EADDRINUSE). Stop what uses it, or set PORT to a free port.`;
    case 'EACCES':
      return `Cannot listen on ${where}: permission denied (EACCES). Ports below 1024 need privileges; set PORT to a higher one.`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen on ${where}: ${host} is not an address of this machine (EADDRNOTAVAIL). Check HOST.`;
    default:
      return `Cannot listen on ${where}: ${error.message}`;
  }
}

/** How often the server checks that it could open one more file descriptor (see watchDescriptors). */
const DESCRIPTOR_CHECK_MS = 1_000;

/**
 * Warns (once a minute at most) while the process is out of file descriptors. accept() failing
 * with EMFILE or ENFILE never reaches Node's 'error' event: libuv closes a descriptor it keeps in
 * reserve, accepts the waiting connections and closes them at once, then takes the reserve back.
 * Clients see their connections closed and the server sees nothing; so the server asks the
 * system itself, every second, for one descriptor, which fails exactly while accept() would.
 */
function watchDescriptors(server: Server): void {
  const warn = throttled(60_000, () =>
    logger.warn({ msg: 'The server cannot accept connections: the process is out of file descriptors (EMFILE). New connections are closed as they arrive; raise the limit (ulimit -n) or lower server.maxConnections' }),
  );
  const check = () => {
    try {
      closeSync(openSync(devNull, 'r'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EMFILE' || code === 'ENFILE') warn();
    }
  };
  const timer = setInterval(check, DESCRIPTOR_CHECK_MS).unref();
  server.once('close', () => clearInterval(timer));
  // Node reports accept failures itself when libuv has no descriptor in reserve.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall === 'accept') warn();
  });
}

/** Listens; a ListenError saying why when it cannot. Errors after that (accept failures such as EMFILE) are logged, not fatal. */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((done, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(new ListenError(listenProblem(error, port, host)));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      watchDescriptors(server);
      server.on('error', (error: NodeJS.ErrnoException) => {
        if (error.syscall !== 'accept') logger.error({ msg: 'HTTP server error', err: error });
      });
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : port);
    });
  });
}
