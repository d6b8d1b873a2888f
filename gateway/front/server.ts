// The node:http front: a thin host for one gateway. It makes each request's exchange, runs the
// gateway's pipeline on the socket (REST, probes, metrics, refusals never pay for Mesh's two
// Fetch-API layers), writes what the pipeline answers, and passes everything else (/graphql)
// to Mesh's own HTTP handler, where the gateway's Yoga plugin finds the same exchange.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { whenReady } from '../../lib/maybe-promise.ts';
import { isBodyless, type Exchange, type GatewayResponse } from '../pipeline/exchange.ts';
import type { LoadedMesh } from './load-mesh.ts';

export interface Front {
  server: Server;
  close(): Promise<void>;
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

export function createFront({ mesh, gateway, serve, dir }: LoadedMesh): Front {
  const { pipeline } = gateway;
  const meshHandler = createMeshHTTPHandler<Record<string, unknown>>({
    baseDir: dir,
    getBuiltMesh: () => Promise.resolve(mesh),
    rawServeConfig: serve as never,
  });

  const statusOf = (res: ServerResponse, clientGone: boolean) => (clientGone ? CLIENT_CLOSED_REQUEST : res.headersSent ? res.statusCode : 500);

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

  const server = createServer((req, res) => {
    whenReady(
      () => handle(req, res),
      () => undefined,
      (error: unknown) => fail(req, res, error),
    );
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
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
