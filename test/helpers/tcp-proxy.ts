// A TCP proxy in front of a real service (PostgreSQL, Redis), which a test can take down and
// bring back on the same port, to see what the gateway does when its dependencies go away.
import { createServer, connect, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly replies = new Map<Socket, Socket>();
  private stalled = false;
  port = 0;
  /** Connections accepted so far: a client's reconnection shows here. */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      this.accepted++;
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      if (!this.stalled) upstream.pipe(client);
      this.replies.set(upstream, client);
      upstream.on('close', () => this.replies.delete(upstream));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  /**
   * Keeps connections open but passes no more replies to the clients, on the connections open
   * now and on new ones (accepted, never answered): a stalled service.
   */
  stall(): void {
    this.stalled = true;
    for (const [upstream, client] of this.replies) upstream.unpipe(client);
  }

  /** Passes replies again, those held back during the stall first. */
  resume(): void {
    if (!this.stalled) return;
    this.stalled = false;
    for (const [upstream, client] of this.replies) upstream.pipe(client);
  }

  /** Drops every connection and refuses new ones, keeping the port for `start` to reuse. */
  async stop(): Promise<void> {
    this.stalled = false;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
