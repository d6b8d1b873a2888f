// The bench's measurement (bench/load.ts) against a real node:http server over a socket: the
// latencies of cached responses are told apart from the misses', so the Zipf mix can say whether
// its worst request was a slow miss or a hit that a miss stalled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measure } from '../../bench/load.ts';

const MISS_DELAY_MS = 250;

describe('bench measure: cached and uncached latencies', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    // `/hit/...` answers at once as a cache hit; anything else is a miss that takes MISS_DELAY_MS.
    server = createServer((request, response) => {
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
});
