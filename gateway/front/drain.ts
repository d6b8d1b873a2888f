// Stopping a node:http server without losing requests, in bounded time (issue 11, item 8).
// `server.close()` alone waits for every connection to end, and a keep-alive client that keeps
// sending never ends its own: a gateway told to stop served on for minutes. Draining stops
// accepting, closes idle connections at once, and answers every request still arriving or in
// flight with `Connection: close`, so each busy connection ends after its current response;
// whatever is still open after `timeoutMs` (a client that never finishes its request) is cut.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** node:http keeps the response in progress on its socket (http-terminator and Node's own clientError default read it too). */
type ServedSocket = Socket & { _httpMessage?: ServerResponse | null };

/** How often idle connections are closed while draining: a response already under way when draining began leaves its connection idle, not closed. */
const SWEEP_MS = 100;

export class Drain {
  private draining = false;
  private readonly sockets = new Set<ServedSocket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: ServedSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Open connections (a gauge for the metrics). */
  get connections(): number {
    return this.sockets.size;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** For every request: while draining, its response closes the connection. */
  mark(res: ServerResponse): void {
    if (this.draining) res.shouldKeepAlive = false;
  }

  /** Drains and stops the server; resolves with the number of connections cut at the deadline. */
  async stop(timeoutMs: number): Promise<number> {
    this.draining = true;
    for (const socket of this.sockets) {
      const response = socket._httpMessage;
      if (response && !response.headersSent) this.mark(response);
    }
    // One turn of the event loop first: a request that reached the socket together with the
    // signal is parsed (and its connection busy) before idle connections are closed.
    await new Promise((turn) => setImmediate(turn));
    // close() also closes the idle connections, and stops Node's request-timeout checks: the
    // deadline below takes their place.
    const closed = new Promise<void>((done) => this.server.close(() => done()));
    const sweep = setInterval(() => this.server.closeIdleConnections(), SWEEP_MS);
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((done) => (deadline = setTimeout(() => done('late'), timeoutMs)));
    const outcome = await Promise.race([closed, late]);
    clearInterval(sweep);
    clearTimeout(deadline);
    if (outcome !== 'late') return 0;
    const cut = this.sockets.size;
    for (const socket of this.sockets) socket.destroy();
    await closed;
    return cut;
  }
}
