// The tutorials run as written: every shell block a tutorial marks as runnable (```sh runnable)
// is run, in order, as one bash script (so variables and background gateways carry from one
// block to the next, as in the reader's terminal), in a copy of the project whose .data/ holds
// the demo catalogue and a key, as after a reader's first `npm start`. The script stops at the
// first failing command (set -euo pipefail), and whatever it left running is stopped.
// A tutorial that needs PostgreSQL and Redis gets a copy of the test catalogue in PostgreSQL
// (DATABASE_URL) and the test Redis (REDIS_URL); without them it skips with the reason.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { openDatabase } from '../../prisma/database.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { freePort } from '../helpers/gateway.ts';
import { REDIS_URL, redisUnavailable } from '../helpers/redis.ts';

/** The marker: a fenced block whose info string is `sh runnable` (or `bash runnable`). */
const RUNNABLE = /^```(?:sh|bash) runnable\s*$/;

/** The runnable blocks of a Markdown text, in order. */
function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (current === undefined) {
      if (RUNNABLE.test(line)) current = [];
    } else if (/^```\s*$/.test(line)) {
      blocks.push(current.join('\n'));
      current = undefined;
    } else {
      current.push(line);
    }
  }
  if (current !== undefined) throw new Error('a runnable block is not closed');
  return blocks;
}

const TUTORIALS_DIR = join(PROJECT_ROOT, 'docs', 'tutorials');
/**
 * Tutorials run by a test of their own, which also checks what their text says they print
 * (test/integration/tutorial-own-icons.test.ts): running them here too would only double the time.
 */
const RUN_BY_THEIR_OWN_TEST = new Set(['bring-your-own-icons.md']);
const tutorials = existsSync(TUTORIALS_DIR)
  ? readdirSync(TUTORIALS_DIR)
      .filter((name) => name.endsWith('.md') && !RUN_BY_THEIR_OWN_TEST.has(name))
      .sort()
      .map((name) => ({ name, blocks: runnableBlocks(readFileSync(join(TUTORIALS_DIR, name), 'utf8')) }))
  : [];

/** Tutorials that need the machine's PostgreSQL and Redis (named in their file names). */
const needsServices = (name: string) => /postgres|redis/.test(name);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A copy of the project as a reader's checkout after `npm install && npm start`: the files git
 * knows (committed or not, ignored ones left out), node_modules and the generated Prisma client
 * linked, and .data/ holding the demo catalogue with a key in .data/demo-api-key.txt.
 */
async function sandbox(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tutorial-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && existsSync(join(PROJECT_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(PROJECT_ROOT, file), join(root, file));
  }
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  symlinkSync(join(PROJECT_ROOT, 'prisma', 'generated'), join(root, 'prisma', 'generated'));
  const dataDir = join(root, '.data', 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(inject('catalogueDump'))]) });
  try {
    const { key } = await createApiKey(db.prisma, { accountName: 'demo' });
    writeFileSync(join(root, '.data', 'demo-api-key.txt'), `${key}\n`, { mode: 0o600 });
  } finally {
    await db.close();
  }
  return root;
}

function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += '\n[tutorial test: timed out, killed]';
      process.kill(-child.pid!, 'SIGKILL');
    }, 540_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

describe('docs/tutorials: the runnable blocks', () => {
  it('finds runnable blocks in the tutorials', () => {
    expect(runnableBlocks('text\n```sh runnable\necho one\n```\n```sh\nnot run\n```\n```bash runnable\necho two\n```\n')).toEqual(['echo one', 'echo two']);
    expect(tutorials.filter((t) => t.blocks.length > 0).map((t) => t.name)).toEqual(
      expect.arrayContaining(['add-a-rest-route.md', 'two-gateways-postgres-redis.md', 'write-a-gateway-plugin.md']),
    );
  });

  for (const { name, blocks } of tutorials.filter((t) => t.blocks.length > 0)) {
    it(`${name} runs as written`, { timeout: 600_000 }, async (context) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        LOG_LEVEL: 'info',
        PORT: String(await freePort()),
        PORT_A: String(await freePort()),
        PORT_B: String(await freePort()),
        DATABASE_URL: '',
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: '',
        GATEWAY_CONFIG_DIR: '',
        PGLITE_DATA_DIR: '',
      };
      if (needsServices(name)) {
        const missing = (await postgresUnavailable()) ?? (await redisUnavailable());
        if (missing) {
          if (process.env.CI === 'true') throw new Error(missing);
          console.log(`skipped ${name}: ${missing}`);
          context.skip();
        }
        const database: TestDatabase = await createCatalogueCopy('postgres');
        cleanups.push(() => database.drop());
        env.DATABASE_URL = database.url!;
        env.REDIS_URL = REDIS_URL;
      }
      const root = await sandbox();
      const script = [
        'set -euo pipefail',
        // Whatever a failing tutorial left running (its gateways) stops with it.
        'trap \'status=$?; kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; exit $status\' EXIT',
        ...blocks.map((block, index) => `echo "--- runnable block ${index + 1} of ${blocks.length}"\n${block}`),
      ].join('\n');
      const { code, output } = await runScript(script, root, env);
      if (code !== 0) console.log(`${name} failed:\n${output}`);
      expect(code, output.slice(-4000)).toBe(0);
      expect(output).toContain(`--- runnable block ${blocks.length} of ${blocks.length}`);
    });
  }
});
