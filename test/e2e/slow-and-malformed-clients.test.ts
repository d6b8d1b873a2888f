// What one client can cost the node:http front of `npm start` (issue 11, items 7 and 12), over
// raw sockets: a client sending its headers or its body byte by byte is cut off with a 408 once
// headersTimeoutMs or requestTimeoutMs has passed (Node's defaults were 60 s and 300 s); at
// maxConnections (or maxConnectionsPerAddress from one address) the connection idle the longest
// is closed to make room, and a new one is refused only when none is idle (issue 45); and what
// Node's parser refuses itself (a URL or headers over 16 KB, a malformed request) gets the API's
// JSON error body and headers instead of a bare status line.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { serverSection, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, withCatalogueDataDir, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, startGatewayProcess, type RunningGateway } from '../helpers/gateway.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const MAX_CONNECTIONS = 6;
const PER_ADDRESS = 4;

let database: TestDatabase;
let key: string;
const connections: RawConnection[] = [];

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'slow', hourlyLimit: 100_000 })).key;
});
afterAll(async () => {
  for (const connection of connections) connection.destroy();
  await database?.drop();
});

function startGateway(options: Record<string, number>): Promise<RunningGateway> {
  return withConfig(serverSection(options), (dir) => startGatewayInProcess(database.db, { dir }));
}

async function open(gateway: RunningGateway, localAddress?: string): Promise<RawConnection> {
  const connection = await RawConnection.open(gateway.url, localAddress);
  connections.push(connection);
  return connection;
}

function expectJsonError(response: RawResponse | undefined, status: number, message: RegExp) {
  expect(response?.status).toBe(status);
  expect(response!.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(response!.body)).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
  expect(response!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(response!.headers['x-ratelimit-limit']).toBe('1000');
  expect(response!.headers.connection).toBe('close');
}

describe('slow clients (headersTimeoutMs 1000, requestTimeoutMs 2000)', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  });
  afterAll(() => gateway?.close());

  /**
   * Trickles `data` a byte every 50 ms (far longer than the timeout); resolves with the time
   * from the first byte to the server closing the connection, or fails if the trickle ends first.
   */
  async function cutOffAfter(connection: RawConnection, data: string): Promise<number> {
    const started = performance.now();
    await connection.trickle(data, 50);
    expect(connection.isClosed, 'the server still listened when the slow client was done').toBe(true);
    return (await connection.closed) - started;
  }

  it('cuts off a client sending its headers byte by byte with 408 after headersTimeoutMs', async () => {
    const connection = await open(gateway);
    const elapsed = await cutOffAfter(connection, `GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ${'a'.repeat(200)}`);
    expectJsonError(await connection.response(), 408, /not received in time/);
    expect(elapsed).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS * 0.9);
    expect(elapsed).toBeLessThan(HEADERS_TIMEOUT_MS * 3);
  });

  it('cuts off a client sending its GraphQL body byte by byte with 408 after requestTimeoutMs', async () => {
    const connection = await open(gateway);
    const body = JSON.stringify({ query: `{ categories { slug } }${' '.repeat(300)}` });
    await connection.write(`POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n`);
    const elapsed = await cutOffAfter(connection, body);
    expectJsonError(await connection.response(), 408, /not received in time/);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
    // Logged and counted as the 408 the client got.
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/^icon_gateway_requests_total\{route="\/graphql",method="POST",status="408"\} 1$/m);
  });

  it('cuts off a slow body without a key too, after answering 401', async () => {
    const connection = await open(gateway);
    await connection.write(`POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n`);
    const elapsed = await cutOffAfter(connection, 'a'.repeat(300));
    expect((await connection.response())?.status).toBe(401);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
  });

  it('still answers a client that is merely not fast', async () => {
    const connection = await open(gateway);
    await connection.trickle(`GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n`, 10); // about 0.4 s
    expect((await connection.response())?.status).toBe(200);
  });
});

describe(`the connection caps (maxConnections ${MAX_CONNECTIONS}, maxConnectionsPerAddress ${PER_ADDRESS})`, () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    // Long timeouts: connections held mid-request must still be open when a test finishes them.
    gateway = await startGateway({ maxConnections: MAX_CONNECTIONS, maxConnectionsPerAddress: PER_ADDRESS, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
  });
  afterAll(() => gateway?.close());

  const healthz = 'GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n';

  async function ask(connection: RawConnection, request: string): Promise<RawResponse | undefined> {
    await connection.write(request);
    return connection.response(5_000);
  }

  /** Connections from `address`, each with one request answered: idle keep-alive connections. */
  async function idleFrom(address: string, count: number): Promise<RawConnection[]> {
    const opened: RawConnection[] = [];
    for (let i = 0; i < count; i++) {
      const connection = await open(gateway, address);
      expect((await ask(connection, healthz))?.status).toBe(200);
      opened.push(connection);
    }
    return opened;
  }

  async function metric(series: string): Promise<number> {
    const connection = await open(gateway);
    const response = await ask(connection, 'GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n');
    return Number(new RegExp(`^${series} (\\d+)`, 'm').exec(response!.body)?.[1] ?? 0);
  }

  const closeAll = (list: RawConnection[]) =>
    Promise.all(
      list.map((connection) => {
        connection.destroy();
        return connection.closed;
      }),
    );

  it('one address holding idle connections up to the cap cannot lock another client out: the longest-idle one is closed', async () => {
    const evictedBefore = await metric('icon_gateway_idle_connections_closed_total');
    // Two addresses fill the cap with idle keep-alive connections (each within its own bound).
    const held = [...(await idleFrom('127.0.0.2', PER_ADDRESS)), ...(await idleFrom('127.0.0.3', MAX_CONNECTIONS - PER_ADDRESS))];
    // A third client is served at once; the connection idle the longest made room for it.
    const other = await open(gateway, '127.0.0.4');
    expect((await ask(other, healthz))?.status).toBe(200);
    await held[0]!.closed;
    for (const connection of held.slice(1)) expect(connection.isClosed).toBe(false);
    // And again: the next longest-idle goes.
    expect((await ask(await open(gateway, '127.0.0.5'), healthz))?.status).toBe(200);
    await held[1]!.closed;
    expect(await metric('icon_gateway_idle_connections_closed_total')).toBeGreaterThanOrEqual(evictedBefore + 2);
    await closeAll([...held, other]);
  });

  it(`bounds the connections of one address: its ${PER_ADDRESS + 1}st closes its own longest-idle one; with none idle it is refused, and other clients are served`, async () => {
    const idle = await idleFrom('127.0.0.6', PER_ADDRESS);
    const next = await open(gateway, '127.0.0.6');
    expect((await ask(next, healthz))?.status).toBe(200);
    await idle[0]!.closed;
    await closeAll([...idle, next]);

    // Connections that have not finished a request are not idle: beyond the bound, a new one is refused.
    const refusedBefore = await metric('icon_gateway_connections_refused_total');
    const busy = await Promise.all(Array.from({ length: PER_ADDRESS }, () => open(gateway, '127.0.0.7')));
    for (const connection of busy) await connection.write('GET /healthz HTTP/1.1\r\n');
    const extra = await open(gateway, '127.0.0.7');
    await extra.write(healthz);
    expect(await extra.response(5_000)).toBeUndefined(); // closed without an answer
    // Others are served; the busy ones are answered once they finish their requests.
    expect((await ask(await open(gateway, '127.0.0.8'), healthz))?.status).toBe(200);
    for (const connection of busy) expect((await ask(connection, 'Host: test\r\n\r\n'))?.status).toBe(200);
    expect(await metric('icon_gateway_connections_refused_total')).toBeGreaterThanOrEqual(refusedBefore + 1);
    await closeAll(busy);
  });

  it('refuses a new connection only when every open one is busy, and has room again once one closes', async () => {
    const addresses = ['127.0.1.1', '127.0.1.2', '127.0.1.3'];
    const busy = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, (_, i) => open(gateway, addresses[i % 3])));
    for (const connection of busy) await connection.write('GET /healthz HTTP/1.1\r\n');
    const extra = await open(gateway, '127.0.1.4');
    await extra.write(healthz);
    expect(await extra.response(5_000)).toBeUndefined();
    busy[0]!.destroy();
    await busy[0]!.closed;
    let answered: RawResponse | undefined;
    for (let attempt = 0; attempt < 50 && !answered; attempt++) {
      answered = await ask(await open(gateway, '127.0.1.4'), healthz);
      if (!answered) await new Promise((wait) => setTimeout(wait, 50));
    }
    expect(answered?.status).toBe(200);
    for (const connection of busy.slice(1)) expect((await ask(connection, 'Host: test\r\n\r\n'))?.status).toBe(200);
    await closeAll(busy);
  });
});

describe('requests Node refuses itself get the JSON error body', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({});
  });
  afterAll(() => gateway?.close());

  async function send(raw: string): Promise<RawResponse | undefined> {
    const connection = await open(gateway);
    await connection.write(raw);
    const response = await connection.response();
    await connection.closed;
    return response;
  }

  it('431 for a URL over 16 KB', async () => {
    expectJsonError(await send(`GET /search?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: test\r\n\r\n`), 431, /larger than 16384 bytes/);
  });

  it('431 for headers over 16 KB', async () => {
    expectJsonError(await send(`GET /icons HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`), 431, /larger than 16384 bytes/);
  });

  it('400 for a malformed request line, a bad Content-Length, a bad chunk, a missing Host', async () => {
    expectJsonError(await send('BREW /icons HTTP/1.1\r\nHost: test\r\n\r\n'), 400, /^Malformed HTTP request: Invalid method/);
    expectJsonError(await send('hello\r\n\r\n'), 400, /^Malformed HTTP request/);
    expectJsonError(await send('GET /icons HTTP/1.1\r\nHost: test\r\nContent-Length: 1x\r\n\r\n'), 400, /^Malformed HTTP request/);
    // (with a key: without one, the request is answered 401 before its body is parsed)
    expectJsonError(await send(`POST /graphql HTTP/1.1\r\nHost: test\r\nX-API-Key: ${key}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`), 400, /^Malformed HTTP request/);
    expectJsonError(await send('GET /healthz HTTP/1.1\r\n\r\n'), 400, /needs a Host header/);
  });

  it('counts them in the metrics, each once', async () => {
    const counted = async () => {
      const text = await (await fetch(`${gateway.url}/metrics`)).text();
      const of = (status: number) => Number(new RegExp(`^icon_gateway_client_errors_total\\{status="${status}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
      return { 431: of(431), 400: of(400) };
    };
    const before = await counted();
    expectJsonError(await send(`GET /icons HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`), 431, /larger than 16384 bytes/);
    expectJsonError(await send('hello\r\n\r\n'), 400, /^Malformed HTTP request/);
    expect(await counted()).toEqual({ 431: before[431] + 1, 400: before[400] + 1 });
  });
});

describe('running out of file descriptors (issue 45, item 4)', () => {
  it('logs a warning (one a minute at most) when the process cannot accept connections, and serves again once it can', async () => {
    await withCatalogueDataDir(async (dataDir) => {
      const gateway = await startGatewayProcess({ PGLITE_DATA_DIR: dataDir, REDIS_URL: '', REDIS_CLUSTER_NODES: '' });
      const warnings = () => gateway.output().split('\n').filter((line) => line.includes('"level":"warn"') && line.includes('cannot accept connections'));
      const held: RawConnection[] = [];
      try {
        expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
        // The child's own file limit, lowered to what it has open plus a few: the kernel still
        // completes the clients' handshakes, and the process's accept() fails with EMFILE.
        const pid = String(gateway.child.pid);
        const inUse = (await readdir(`/proc/${pid}/fd`)).length;
        // Only the soft limit moves: raising a hard limit back takes a privilege containers may lack.
        const softLimit = /^Max open files\s+(\d+)/m.exec(await readFile(`/proc/${pid}/limits`, 'utf8'))![1]!;
        execFileSync('prlimit', ['--pid', pid, `--nofile=${inUse + 6}:`]);
        for (let i = 0; i < 30; i++) held.push(await RawConnection.open(gateway.url));
        for (let waited = 0; warnings().length === 0 && waited < 30_000; waited += 100) await new Promise((wait) => setTimeout(wait, 100));
        expect(warnings()).toHaveLength(1);
        expect(JSON.parse(warnings()[0]!).msg).toMatch(/out of file descriptors \(EMFILE\)/);
        // More failures within the minute: still one line.
        for (let i = 0; i < 10; i++) held.push(await RawConnection.open(gateway.url));
        for (const connection of held) connection.destroy();
        execFileSync('prlimit', ['--pid', pid, `--nofile=${softLimit}:`]);
        let status = 0;
        for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
          status = await fetch(`${gateway.url}/healthz`).then((response) => response.status, () => 0);
          if (status !== 200) await new Promise((wait) => setTimeout(wait, 100));
        }
        expect(status).toBe(200);
        expect(warnings()).toHaveLength(1);
      } finally {
        for (const connection of held) connection.destroy();
        await gateway.close();
      }
    });
  });
});
