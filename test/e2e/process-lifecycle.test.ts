// `npm start` as a child process, stopping and failing to start (issue 11, items 8 and 15):
// SIGTERM while several keep-alive clients send without pause exits promptly, every request
// that reached the server before the signal gets its whole response, readiness fails during
// the drain, a client that never finishes its request is cut at drainTimeoutMs; a port already
// taken is one clear line and exit code 1, not a stack trace.
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { serverSection, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayProcess } from '../helpers/gateway.ts';
import { RawConnection } from '../helpers/raw-http.ts';

type ChildGateway = Awaited<ReturnType<typeof startGatewayProcess>>;

interface Sent {
  /** When the request's bytes were handed to the OS ('finish'). */
  sentAt?: number;
  status?: number;
  error?: string;
  connection?: string;
}

/** A client sending one request after another on one keep-alive connection (reopened when the server closes it) until `stop()`. */
function busyClient(url: string, key: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sent: Sent[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const record: Sent = {};
      sent.push(record);
      await new Promise<void>((next) => {
        const failed = (error: NodeJS.ErrnoException) => {
          record.error = error.code ?? error.message;
          next();
        };
        const req = request(`${url}/icons/mdi-home`, { agent, headers: { 'x-api-key': key } }, (response) => {
          response.resume();
          response.on('end', () => {
            record.status = response.statusCode;
            record.connection = response.headers.connection;
            next();
          });
          response.on('error', failed);
        });
        req.on('finish', () => {
          record.sentAt = performance.now();
        });
        req.on('error', failed);
        req.end();
      });
      // Once the server stops listening, there is nothing left to send to.
      if (record.error === 'ECONNREFUSED') break;
    }
    agent.destroy();
  })();
  return {
    sent,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/**
 * Sends SIGTERM; `exited` resolves with the exit code and how long the process took to exit,
 * and fails if it has not exited after `limitMs`.
 */
function terminate(gateway: ChildGateway, limitMs: number): { at: number; exited: Promise<{ code: number | null; ms: number }> } {
  const at = performance.now();
  const exited = new Promise<{ code: number | null; ms: number }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the gateway had not exited ${limitMs} ms after SIGTERM`)), limitMs);
    gateway.child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, ms: performance.now() - at });
    });
  });
  gateway.child.kill('SIGTERM');
  return { at, exited };
}

/** After a test: the child is gone, whatever happened (SIGKILL if it did not stop). */
function kill(gateway: ChildGateway): void {
  if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
}

async function waitForOutput(gateway: ChildGateway, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !pattern.test(gateway.output()); i++) await new Promise((wait) => setTimeout(wait, 25));
  expect(gateway.output()).toMatch(pattern);
}

describe.skipIf(await postgresUnavailable())('npm start: SIGTERM and start-up failures', () => {
  let database: TestDatabase;
  let key: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    key = (await createApiKey(database.db.prisma, { accountName: `lifecycle-${Date.now()}`, hourlyLimit: 1_000_000 })).key;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('drains with busy keep-alive clients: exits promptly, loses no request sent before the signal, fails readiness meanwhile', async () => {
    const gateway = await startGatewayProcess({ DATABASE_URL: database.url!, LOG_LEVEL: 'warn' });
    const clients = Array.from({ length: 4 }, () => busyClient(gateway.url, key));
    try {
      // A GraphQL request in flight across the signal: headers and half its body before, the rest after.
      const body = JSON.stringify({ query: '{ categories { slug } }' });
      const inFlight = await RawConnection.open(gateway.url);
      await inFlight.write(`POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
      // A readiness probe whose headers are under way when the signal comes.
      const probe = await RawConnection.open(gateway.url);
      await probe.write('GET /readyz HTTP/1.1\r\nHost: test\r\n');
      // Until every client has been answered a good number of times.
      const busy = () => clients.every((client) => client.sent.filter((record) => record.status === 200).length >= 20);
      for (let i = 0; i < 300 && !busy(); i++) await new Promise((wait) => setTimeout(wait, 50));
      expect(busy(), JSON.stringify(clients.map((client) => client.sent.slice(-3)))).toBe(true);

      const sigterm = terminate(gateway, 15_000);
      await waitForOutput(gateway, /SIGTERM: /);
      await probe.write('\r\n');
      await new Promise((wait) => setTimeout(wait, 200));
      await inFlight.write(body.slice(10));

      const readiness = await probe.response();
      expect(readiness?.status).toBe(503);
      expect(JSON.parse(readiness!.body)).toEqual({ status: 'draining' });
      expect(readiness!.headers.connection).toBe('close');
      const finished = await inFlight.response();
      expect(finished?.status).toBe(200);
      expect(JSON.parse(finished!.body).data.categories.length).toBeGreaterThan(0);
      expect(finished!.headers.connection).toBe('close');

      const { code, ms } = await sigterm.exited;
      await Promise.all(clients.map((client) => client.stop()));
      expect(code).toBe(0);
      // No client misbehaves, so no connection waits for the 10 s deadline.
      expect(ms).toBeLessThan(5_000);
      const before = clients.flatMap((client) => client.sent.filter((record) => record.sentAt !== undefined && record.sentAt < sigterm.at));
      expect(before.length).toBeGreaterThan(40);
      expect(before.filter((record) => record.status !== 200)).toEqual([]);
      // Those answered after the signal were told to close their connection.
      const after = clients.flatMap((client) => client.sent.filter((record) => record.sentAt !== undefined && record.sentAt > sigterm.at + 100 && record.status));
      for (const record of after) expect(record.connection).toBe('close');
      console.info(`SIGTERM with 4 busy keep-alive clients: exited in ${Math.round(ms)} ms; ${before.length} requests sent before it, all answered 200`);
    } finally {
      await Promise.all(clients.map((client) => client.stop()));
      kill(gateway);
    }
  });

  it('cuts a client that never finishes its request at drainTimeoutMs and exits', async () => {
    await withConfig(serverSection({ drainTimeoutMs: 2_000 }), async (dir) => {
      const gateway = await startGatewayProcess({ DATABASE_URL: database.url!, GATEWAY_CONFIG_DIR: dir, LOG_LEVEL: 'warn' });
      const client = busyClient(gateway.url, key);
      try {
        const stuck = await RawConnection.open(gateway.url);
        await stuck.write(`POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\nContent-Length: 1000\r\n\r\n{"query":`);
        await new Promise((wait) => setTimeout(wait, 500));

        const { code, ms } = await terminate(gateway, 15_000).exited;
        expect(code).toBe(0);
        expect(ms).toBeGreaterThanOrEqual(1_900);
        expect(ms).toBeLessThan(2_000 + 3_000);
        expect(gateway.output()).toMatch(/Cut 1 connection\(s\) still open 2000 ms after the drain began/);
        expect(stuck.isClosed).toBe(true);
        console.info(`SIGTERM with a request that never ends (drainTimeoutMs 2000): exited in ${Math.round(ms)} ms`);
      } finally {
        await client.stop();
        kill(gateway);
      }
    });
  });

  it('says in one line that the port is taken, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    const { port } = taken.address() as { port: number };
    try {
      const failure = await startGatewayProcess({ DATABASE_URL: database.url!, PORT: String(port) }).then(
        async (gateway) => {
          await gateway.close();
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/^gateway exited with 1:/);
      const lines = failure.split('\n');
      const errorLines = lines.filter((line) => /error/i.test(line));
      expect(errorLines).toEqual([`error: Cannot listen on port ${port} on 127.0.0.1: the port is already in use (EADDRINUSE). Stop what uses it, or set PORT to a free port.`]);
      expect(failure).not.toMatch(/^\s+at /m); // no stack trace
    } finally {
      taken.close();
    }
  });
});
