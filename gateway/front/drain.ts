// Stopping a node:http server without losing requests, in bounded time (issue 11, item 8).
// `server.close()` alone waits for every connection to end, and a keep-alive client that keeps
// sending never ends its own: a gateway told to stop served on for minutes. Draining stops
// accepting, closes idle connections at once, and answers every request still arriving or in
// flight with `Connection: close`, so each busy connection ends after its current response;
// whatever is still open after `timeoutMs` (a client that never finishes its request) is cut.
import type { Server, ServerResponse } from 'node:http';
import type { Connections } from './connections.ts';

/** How often idle connections are closed while draining: a response already under way when draining began leaves its connection idle, not closed. */
const SWEEP_MS = 100;

export class Drain {
  private draining = false;

  /** `connections`: the front's bookkeeping of what each connection is serving. */
  constructor(
    private readonly server: Server,
    private readonly connections: Connections,
  ) {}

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
    for (const response of this.connections.responses()) {
      if (!response.headersSent) this.mark(response);
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
    const cut = this.connections.destroyAll();
    await closed;
    return cut;
  }
}
