// The front's connection bookkeeping (gateway/front/connections.ts) on a plain node:http server
// over real sockets: the caps per address and in all, the longest-idle connection making room,
// and refusals only when nothing is idle (issue 45, item 2).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Connections } from '../../gateway/front/connections.ts';
import { RawConnection } from '../helpers/raw-http.ts';

const REQUEST = 'GET / HTTP/1.1\r\nHost: test\r\n\r\n';
let server: Server | undefined;
const opened: RawConnection[] = [];

afterEach(async () => {
  for (const connection of opened.splice(0)) connection.destroy();
  await new Promise((done) => server?.close(done) ?? done(undefined));
});

async function serve(maxConnections: number, maxConnectionsPerAddress: number) {
  const counts = { refused: 0, evicted: 0 };
  const connections = new Connections({ maxConnections, maxConnectionsPerAddress }, { refused: () => void counts.refused++, evicted: () => void counts.evicted++ });
  server = createServer((req, res) => {
    connections.started(req.socket, res);
    res.end('ok');
  });
  server.on('connection', (socket: Socket) => connections.admit(socket));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const open = async (from: string) => {
    const connection = await RawConnection.open(url, from);
    opened.push(connection);
    return connection;
  };
  const idle = async (from: string) => {
    const connection = await open(from);
    await connection.write(REQUEST);
    expect((await connection.response(5_000))?.status).toBe(200);
    return connection;
  };
  return { connections, counts, open, idle };
}

describe('Connections', () => {
  it('at the global cap closes the longest-idle connection for a newcomer', async () => {
    const { connections, counts, idle } = await serve(3, 3);
    const held = [await idle('127.0.0.2'), await idle('127.0.0.2'), await idle('127.0.0.3')];
    expect(connections.size).toBe(3);
    await idle('127.0.0.4');
    await held[0]!.closed;
    expect([held[1]!.isClosed, held[2]!.isClosed, counts.evicted, counts.refused]).toEqual([false, false, 1, 0]);
  });

  it('per address closes that address’s own longest-idle connection, not another’s', async () => {
    const { counts, idle } = await serve(10, 2);
    const other = await idle('127.0.0.5');
    const mine = [await idle('127.0.0.6'), await idle('127.0.0.6')];
    await idle('127.0.0.6');
    await mine[0]!.closed;
    expect([other.isClosed, mine[1]!.isClosed, counts.evicted]).toEqual([false, false, 1]);
  });

  it('refuses a newcomer only when no connection is idle; a busy one is answered once its request is whole', async () => {
    const { connections, counts, open } = await serve(2, 2);
    const busy = [await open('127.0.0.7'), await open('127.0.0.8')];
    for (const connection of busy) await connection.write('GET / HTTP/1.1\r\n');
    const extra = await open('127.0.0.9');
    await extra.closed;
    expect(counts.refused).toBe(1);
    await busy[0]!.write('Host: test\r\n\r\n');
    expect((await busy[0]!.response(5_000))?.status).toBe(200);
    // Now idle: it makes room.
    const next = await open('127.0.0.9');
    await next.write(REQUEST);
    expect((await next.response(5_000))?.status).toBe(200);
    await busy[0]!.closed;
    expect(connections.size).toBe(2);
    expect(connections.responseOn(busy[1]!.socket)).toBeUndefined(); // a client's socket is not the server's
  });

  it('knows the response a connection is serving, and forgets it when it ends', async () => {
    const connections = new Connections({ maxConnections: 10, maxConnectionsPerAddress: 10 }, { refused() {}, evicted() {} });
    let seen: unknown;
    server = createServer((req, res) => {
      connections.started(req.socket, res);
      seen = connections.responseOn(req.socket) === res;
      res.end('ok');
    });
    server.on('connection', (socket: Socket) => connections.admit(socket));
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const connection = await RawConnection.open(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    opened.push(connection);
    await connection.write(REQUEST);
    expect((await connection.response(5_000))?.status).toBe(200);
    expect(seen).toBe(true);
    expect([...connections.responses()]).toEqual([]);
  });
});
