// The bench's measurement (bench/load.ts) against a real node:http server over a socket: the
// latencies of cached responses are told apart from the misses', so the Zipf mix can say whether
// its worst request was a slow miss or a hit that a miss stalled; and the server's CPU time per
// response, read from /proc for the measured run only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processCpuSeconds } from '../../bench/children.ts';
import { measure } from '../../bench/load.ts';

const MISS_DELAY_MS = 250;
/** `/busy/...` answers once this process has used this much more CPU time (not wall time: a loaded machine may take turns away). */
const BUSY_MS = 3;

describe('bench measure: cached and uncached latencies', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    // `/hit/...` answers at once as a cache hit; anything else is a miss that takes MISS_DELAY_MS.
    server = createServer((request, response) => {
      if (request.url!.startsWith('/busy/')) {
        const cpuMicros = () => {
          const { user, system } = process.cpuUsage();
          return user + system;
        };
        const until = cpuMicros() + BUSY_MS * 1000;
        while (cpuMicros() < until);
        return void response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
      const hit = request.url!.startsWith('/hit/');
      const send = () => response.writeHead(200, { 'x-cache': hit ? 'HIT' : 'MISS', 'content-type': 'application/json' }).end('{}');
      if (hit) send();
      else setTimeout(send, MISS_DELAY_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hit/0`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps the hits apart from the slow misses beside them', async () => {
    let request = 0;
    // One request in five is a miss, spread over the connections in no fixed pattern.
    const nextPath = () => (++request % 5 === 0 ? `/miss/${request}` : `/hit/${request}`);
    const stats = await measure({ url, headers: {}, connections: 4, warmupSeconds: 0, seconds: 1.5, nextPath });

    expect(stats.cache.hit).toBeGreaterThan(10);
    expect(stats.cache.miss).toBeGreaterThan(0);
    expect(stats.max).toBeGreaterThanOrEqual(MISS_DELAY_MS);
    expect(stats.uncached.max).toBe(stats.max);
    expect(stats.uncached.p99).toBeGreaterThanOrEqual(MISS_DELAY_MS);
    // A hit paired with the wrong response's X-Cache would carry a miss's 250 ms here.
    expect(stats.cached.max).toBeLessThan(MISS_DELAY_MS);
  });

  it('reports no cached latency when nothing was cached', async () => {
    const stats = await measure({ url: url.replace('/hit/', '/miss/'), headers: {}, connections: 2, warmupSeconds: 0, seconds: 0.6 });
    expect(stats.cache.hit).toBe(0);
    expect(stats.cached.max).toBeNaN();
    expect(stats.uncached.max).toBeGreaterThanOrEqual(MISS_DELAY_MS);
  });

  it("reports the server's CPU time per response over the measured run, and none when not asked", async () => {
    // The server runs in this process, so the figure also holds autocannon's own work: at least
    // the server's 3 ms a response, and not much more.
    const busy = url.replace('/hit/', '/busy/');
    const stats = await measure({ url: busy, headers: {}, connections: 2, warmupSeconds: 0.3, seconds: 1, serverCpuSeconds: () => processCpuSeconds(process.pid) });
    expect(stats.responses).toBeGreaterThan(50);
    expect(stats.cpuMicrosPerResponse).toBeGreaterThanOrEqual(BUSY_MS * 1000 * 0.9);
    expect(stats.cpuMicrosPerResponse).toBeLessThan(BUSY_MS * 1000 * 2);
    const unasked = await measure({ url: busy, headers: {}, connections: 1, warmupSeconds: 0, seconds: 0.3 });
    expect(unasked.cpuMicrosPerResponse).toBeNaN();
    expect(processCpuSeconds(2 ** 22 + 12_345)).toBeUndefined();
  });
});
