// HTTP spoken by hand over a TCP socket, for clients no library would be: requests sent byte by
// byte, malformed request lines, huge headers, bodies that never end. A RawConnection collects
// what the server sends and says when (and whether) it closed the connection.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private received = Buffer.alloc(0);
  private closedAt: number | undefined;
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<number>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.notify();
    });
    socket.on('error', () => {}); // a reset is a close like any other here
    this.closed = new Promise((done) =>
      socket.once('close', () => {
        this.closedAt = performance.now();
        this.notify();
        done(this.closedAt);
      }),
    );
  }

  /** `localAddress`: the client's own address (another loopback address, such as 127.0.0.2, is another client). */
  static open(url: string, localAddress?: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((done, fail) => {
      const socket = connect({ port: Number(port), host: hostname, ...(localAddress && { localAddress }) }, () => done(new RawConnection(socket)));
      socket.once('error', fail);
    });
  }

  get isClosed(): boolean {
    return this.closedAt !== undefined;
  }

  /** Resolves false when the server closed the connection first (or it was reset). */
  write(data: string | Buffer): Promise<boolean> {
    if (this.isClosed || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((done) => this.socket.write(data, (error) => done(!error)));
  }

  /** Sends `data` one byte every `intervalMs` until it is all sent or the server closes. */
  async trickle(data: string, intervalMs: number): Promise<void> {
    for (const byte of data) {
      if (!(await this.write(byte))) return;
      await new Promise((wait) => setTimeout(wait, intervalMs));
    }
  }

  /**
   * The next complete response the server sent (Content-Length bodies), taken from what was
   * received; undefined once the server closed without one.
   */
  async response(timeoutMs = 10_000): Promise<RawResponse | undefined> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const parsed = parseResponse(this.received);
      if (parsed) {
        this.received = this.received.subarray(parsed.size);
        return parsed.response;
      }
      if (this.isClosed) return undefined;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no response within ${timeoutMs} ms; received so far: ${JSON.stringify(this.received.toString('latin1').slice(0, 300))}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.add(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private notify(): void {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}

function parseResponse(data: Buffer): { response: RawResponse; size: number } | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return undefined;
  return {
    response: { status: Number(statusLine!.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') },
    size: end + 4 + length,
  };
}
