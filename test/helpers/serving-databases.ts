// Databases opened with serving limits for one test each, and TCP proxies in front of the
// PostgreSQL server (to stall it): closed after every test of the file that calls
// `servingDatabases()`.
import { afterEach } from 'vitest';
import { openDatabase, type Database } from '../../prisma/database.ts';
import type { ServingLimits } from '../../prisma/serving-limits.ts';
import { ADMIN_URL } from './databases.ts';
import { TcpProxy } from './tcp-proxy.ts';

export const servingLimits = (overrides: Partial<ServingLimits> = {}): ServingLimits => ({
  statementTimeoutMs: 5_000,
  queryTimeoutMs: 6_000,
  connectTimeoutMs: 2_000,
  maxWaiting: 100,
  backgroundStatementTimeoutMs: 60_000,
  ...overrides,
});

export function servingDatabases() {
  const opened: { close(): Promise<void> }[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.stop();
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => {})));
  });
  return {
    async open(options: Parameters<typeof openDatabase>[0]): Promise<Database> {
      const db = await openDatabase(options);
      opened.push(db);
      return db;
    },
    /** Closed after the test too. */
    track(closeable: { close(): Promise<void> }): void {
      opened.push(closeable);
    },
    /** A proxy in front of the test server, and the server's URL through it. */
    async proxied(): Promise<{ proxy: TcpProxy; url: string }> {
      const admin = new URL(ADMIN_URL);
      const proxy = await new TcpProxy(admin.hostname, Number(admin.port || 5432)).start();
      proxies.push(proxy);
      const url = new URL(ADMIN_URL);
      url.host = `127.0.0.1:${proxy.port}`;
      return { proxy, url: url.toString() };
    },
  };
}

/**
 * The first answer of `read`, tried every 100 ms after each failure, while the database comes
 * back; undefined when none came within `ms`.
 */
export async function firstAnswer(read: () => Promise<unknown>, ms = 10_000): Promise<unknown> {
  const deadline = Date.now() + ms;
  let answer: unknown;
  while (answer === undefined && Date.now() < deadline) {
    answer = await read().catch(() => new Promise((resolve) => setTimeout(() => resolve(undefined), 100)));
  }
  return answer;
}
