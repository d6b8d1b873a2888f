// docs/tutorials/bring-your-own-icons.md runs as written: its ```sh runnable blocks, in order, in
// one bash script from the project's folder, on a database of its own (PGLITE_DATA_DIR in a
// temporary folder, never the repository's .data/). What the text says they print is checked.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

const TUTORIAL = join(PROJECT_ROOT, 'docs/tutorials/bring-your-own-icons.md');

/** The bodies of the fenced blocks whose info string is `sh runnable`, in order. */
function runnableBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh runnable\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

let dataRoot: string | undefined;
afterAll(async () => {
  if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
});

// Eleven CLI runs, each a process that opens the database: minutes on a busy machine.
it('runs as written and says what the text says', { timeout: 900_000 }, async () => {
  const blocks = runnableBlocks(await readFile(TUTORIAL, 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(10);
  dataRoot = await mkdtemp(join(tmpdir(), 'icon-tutorial-'));
  const script = ['set -euo pipefail', ...blocks.map((block, index) => `echo "=== block ${index + 1}"\n${block}`)].join('\n');
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DATA_DIR: join(dataRoot, 'pglite') };
  delete env.DATABASE_URL;
  const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn('bash', ['-c', script], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (exit) => done({ code: exit, output }));
  });
  expect(code, output).toBe(0);
  expect(output).toContain(`=== block ${blocks.length}`);
  // Block 5: the dry run lists three icons and the rejected file, and writes nothing.
  expect(output).toMatch(/acme: 3 would be added, 0 changed, 0 removed, 0 renamed, 1 rejected/);
  expect(output).toMatch(/warning: acme: rejected tracker\.svg: contains a <script> element/);
  // The redraw and the deletion, then the rename.
  expect(output).toMatch(/^ {2}changed: home$/m);
  expect(output).toMatch(/^ {2}removed: sunrise$/m);
  expect(output).toMatch(/^ {2}renamed: logo-acme -> logo$/m);
  expect(output).toMatch(/^ {2}aliases added: logo-acme$/m);
  expect(output).toMatch(/Granted the set "acme" to "acme-web": 3 icons newly owned/);
  expect(output).toMatch(/^acme home logo$/m);
  expect(output).toMatch(/Revoked the set "acme" from "acme-web"/);
});
