// What one client can cost the node:http front of `npm start` (issue 11, items 7 and 12), over
// raw sockets: a client sending its headers or its body byte by byte is cut off with a 408 once
// headersTimeoutMs or requestTimeoutMs has passed (Node's defaults were 60 s and 300 s); beyond
// maxConnections new connections are closed while the open ones are still answered; and what
// Node's parser refuses itself (a URL or headers over 16 KB, a malformed request) gets the API's
// JSON error body and headers instead of a bare status line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { serverSection, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const MAX_CONNECTIONS = 6;

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

async function open(gateway: RunningGateway): Promise<RawConnection> {
  const connection = await RawConnection.open(gateway.url);
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

describe(`the connection cap (maxConnections ${MAX_CONNECTIONS})`, () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ maxConnections: MAX_CONNECTIONS });
  });
  afterAll(() => gateway?.close());

  const healthz = 'GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n';

  async function ask(connection: RawConnection, request: string): Promise<RawResponse | undefined> {
    await connection.write(request);
    return connection.response(5_000);
  }

  it('closes connections beyond the cap at once while the open ones are still answered', async () => {
    const within = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(gateway)));
    for (const connection of within) expect((await ask(connection, healthz))?.status).toBe(200);

    const extra = await open(gateway);
    await extra.write(healthz);
    expect(await extra.response(5_000)).toBeUndefined(); // closed without an answer
    expect(extra.isClosed).toBe(true);

    // The connections within the cap are still answered (kept alive), and the refusal is counted.
    for (const connection of within.slice(1)) expect((await ask(connection, healthz))?.status).toBe(200);
    const metrics = await ask(within[0]!, 'GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n');
    expect(metrics?.status).toBe(200);
    expect(Number(/^icon_gateway_connections_refused_total (\d+)/m.exec(metrics!.body)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^icon_gateway_open_connections (\d+)/m.exec(metrics!.body)?.[1])).toBe(MAX_CONNECTIONS);

    // Once one closes, there is room again.
    within[0]!.destroy();
    let answered: RawResponse | undefined;
    for (let attempt = 0; attempt < 50 && !answered; attempt++) {
      answered = await ask(await open(gateway), healthz);
      if (!answered) await new Promise((wait) => setTimeout(wait, 50));
    }
    expect(answered?.status).toBe(200);
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
