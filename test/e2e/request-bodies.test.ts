// Request bodies (issue 11, item 4): POST /graphql bodies are capped (413) and the bytes being
// received at once are bounded (503 with Retry-After), so concurrent huge bodies from one key
// can no longer exhaust the heap of `npm start` (192 MB): checked against a child process
// started as npm start starts it, then the limits one by one on an in-process gateway.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { serverSection, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, startGatewayProcess, type RunningGateway } from '../helpers/gateway.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';

const MB = 1024 * 1024;
const QUERY = JSON.stringify({ query: '{ categories { slug } }' });

/** A GraphQL POST of `bytes` bytes (a valid query with a long variable), sent in 1 MB writes. */
function postHugeBody(url: string, key: string, bytes: number, chunked: boolean): Promise<number | string> {
  const head = '{"query":"{ categories { slug } }","variables":{"pad":"';
  const tail = '"}}';
  const filler = Buffer.alloc(MB, 'a');
  return new Promise((done) => {
    const req = request(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, ...(chunked ? {} : { 'content-length': String(bytes) }) },
    });
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode!));
      response.on('error', () => done(response.statusCode!));
    });
    // The server may answer and close before the whole body is sent: that is the point.
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    const drained = () =>
      new Promise<void>((resume) => {
        const go = () => {
          req.off('drain', go).off('close', go);
          resume();
        };
        req.on('drain', go).on('close', go);
      });
    void (async () => {
      let left = bytes - head.length - tail.length;
      if (!req.write(head)) await drained();
      while (left > 0 && !req.destroyed) {
        const chunk = left >= MB ? filler : filler.subarray(0, left);
        left -= chunk.length;
        if (!req.write(chunk)) await drained();
      }
      if (!req.destroyed) req.end(tail);
    })();
  });
}

async function graphqlStatus(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: QUERY });
  await response.arrayBuffer();
  return response.status;
}

describe.skipIf(await postgresUnavailable())('npm start under concurrent 24 MB GraphQL bodies from one key', () => {
  let database: TestDatabase;
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>>;
  let key: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    key = (await createApiKey(database.db.prisma, { accountName: `bodies-${Date.now()}`, hourlyLimit: 100_000 })).key;
    gateway = await startGatewayProcess({ DATABASE_URL: database.url! });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it('survives four at once (two chunked, two with Content-Length), refuses them, and keeps answering', async () => {
    const outcomes = await Promise.all([
      postHugeBody(gateway.url, key, 24_000_000, true),
      postHugeBody(gateway.url, key, 24_000_000, false),
      postHugeBody(gateway.url, key, 24_000_000, true),
      postHugeBody(gateway.url, key, 24_000_000, false),
    ]);
    const health = await fetch(`${gateway.url}/healthz`).then((response) => response.status, (error: Error) => error.message);
    expect(health, gateway.output().slice(-1_500)).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
    // Refused on their Content-Length before a byte is read; chunked ones once 100 KB have come
    // (the connection is then closed, which a client still writing may see as a reset).
    expect([outcomes[1], outcomes[3]]).toEqual([413, 413]);
    for (const outcome of [outcomes[0], outcomes[2]]) expect([413, 'ECONNRESET', 'EPIPE']).toContain(outcome);
    expect(await graphqlStatus(gateway.url, key)).toBe(200);
  });
});

describe('body limits, one by one (maxBodyBytes 4096, maxBodyBytesInFlight 10000)', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let key: string;
  const connections: RawConnection[] = [];

  beforeAll(async () => {
    database = await createCatalogueCopy('pglite');
    key = (await createApiKey(database.db.prisma, { accountName: 'bodies', hourlyLimit: 100_000 })).key;
    gateway = await withConfig(serverSection({ maxBodyBytes: 4096, maxBodyBytesInFlight: 10_000 }), (dir) => startGatewayInProcess(database.db, { dir }));
  });
  afterAll(async () => {
    for (const connection of connections) connection.destroy();
    await gateway?.close();
    await database?.drop();
  });

  /** A valid GraphQL request of exactly `bytes` bytes (JSON allows the padding). */
  const bodyOf = (bytes: number) => `${QUERY.slice(0, -1)}${' '.repeat(bytes - QUERY.length)}}`;
  const head = (framing: string) => `POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\n${framing}\r\n`;

  async function open(): Promise<RawConnection> {
    const connection = await RawConnection.open(gateway.url);
    connections.push(connection);
    return connection;
  }

  function expectRefusal(response: RawResponse | undefined, status: number, message: RegExp) {
    expect(response?.status).toBe(status);
    // On /graphql, as every refusal there: a GraphQL response with the code and the status.
    expect(response!.headers['content-type']).toMatch(/^application\/json/);
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'SERVICE_UNAVAILABLE';
    expect(JSON.parse(response!.body)).toEqual({ errors: [{ message: expect.stringMatching(message), extensions: { code, http: { status } } }] });
    expect(response!.headers['x-request-id']).toBeTruthy();
    expect(response!.headers['x-ratelimit-limit']).toBeTruthy();
    expect(response!.headers.connection).toBe('close');
  }

  it('answers a body of exactly maxBodyBytes', async () => {
    const connection = await open();
    await connection.write(`${head('Content-Length: 4096\r\n')}${bodyOf(4096)}`);
    const response = await connection.response();
    expect(response?.status).toBe(200);
    expect(JSON.parse(response!.body).data.categories.length).toBeGreaterThan(0);
  });

  it('refuses a larger Content-Length with 413 before reading any of the body, and closes the connection', async () => {
    const connection = await open();
    await connection.write(head('Content-Length: 24000000\r\n'));
    expectRefusal(await connection.response(), 413, /larger than 4096 bytes/);
    await connection.closed;
  });

  it('refuses a chunked body with 413 once it passes maxBodyBytes', async () => {
    const connection = await open();
    await connection.write(head('Transfer-Encoding: chunked\r\n'));
    const chunk = `${(1024).toString(16)}\r\n${'a'.repeat(1024)}\r\n`;
    for (let i = 0; i < 4; i++) await connection.write(chunk);
    await new Promise((wait) => setTimeout(wait, 200));
    expect(connection.isClosed).toBe(false); // 4096 bytes are allowed
    await connection.write(chunk);
    expectRefusal(await connection.response(), 413, /larger than 4096 bytes/);
  });

  it('refuses with 503 and Retry-After while the bytes in flight would pass maxBodyBytesInFlight, and gives them back', async () => {
    // Two bodies of 4096 declared and not yet sent hold 8192 of the 10,000 bytes.
    const holders = [await open(), await open()];
    for (const holder of holders) await holder.write(`${head('Content-Length: 4096\r\n')}${bodyOf(4096).slice(0, 100)}`);
    await new Promise((wait) => setTimeout(wait, 300));

    const declared = await open();
    await declared.write(head('Content-Length: 4096\r\n'));
    const refusal = await declared.response();
    expectRefusal(refusal, 503, /too many request bodies/);
    expect(refusal!.headers['retry-after']).toBe('1');

    const chunked = await open();
    await chunked.write(head('Transfer-Encoding: chunked\r\n'));
    await chunked.write(`${(3000).toString(16)}\r\n${'a'.repeat(3000)}\r\n`);
    expectRefusal(await chunked.response(), 503, /too many request bodies/);

    // The holders finish and are answered; their share is given back.
    for (const holder of holders) await holder.write(bodyOf(4096).slice(100));
    for (const holder of holders) expect((await holder.response())?.status).toBe(200);
    const after = await open();
    await after.write(`${head('Content-Length: 4096\r\n')}${bodyOf(4096)}`);
    expect((await after.response())?.status).toBe(200);
  });
});
