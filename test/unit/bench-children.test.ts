// The bench's child servers (bench/children.ts): a server that does not print "Serving on <url>"
// (the Iconify API, started beside the gateway by bench/iconify-api.ts) is ready at the line
// it is told to wait for, not at its first line, and is reached at the URL it was given.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer } from '../../bench/children.ts';

const LOAD_MS = 400;

describe('bench child servers: a ready line of their own', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-children-'));
    // Listens at once, as the Iconify API does, but says it is ready only once it has "loaded".
    await writeFile(
      join(dir, 'server.mjs'),
      `import { createServer } from 'node:http';
       const server = createServer((request, response) => response.end(loaded ? 'loaded' : 'loading'));
       let loaded = false;
       server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('Listening on 127.0.0.1:' + process.env.PORT));
       setTimeout(() => { loaded = true; console.log('startup complete'); }, ${LOAD_MS});
       process.on('SIGTERM', () => process.exit(0));`,
    );
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('waits for the ready line and uses the URL it was given', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startServer({
      name: 'slow starter',
      script: join(dir, 'server.mjs'),
      plainNode: true,
      env: { ...process.env, PORT: String(port) },
      logFile: join(dir, 'server.log'),
      timeoutMs: 30_000,
      ready: { line: /startup complete/, url },
    });
    try {
      expect(server.url).toBe(url);
      expect(server.readyLine).toContain('startup complete');
      expect(server.readyMs).toBeGreaterThanOrEqual(LOAD_MS);
      expect(await (await fetch(server.url)).text()).toBe('loaded');
    } finally {
      await server.stop();
    }
  });
});
