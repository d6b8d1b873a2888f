// The operator CLI as an operator runs it: `cli/main.ts` in a child process of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../../cli/commands.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export interface CliRun {
  child: ChildProcess;
  /** Its exit, with stdout and stderr together. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

export function startCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((done) =>
    child.on('close', (code, signal) => done({ code, signal, output })),
  );
  return { child, exited };
}

/** The CLI run in this process (what `npm run cli` runs), its output lines captured. */
export async function runCliCaptured(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line), isTTY: false, stderr: undefined });
  return { code, out, err };
}

/**
 * A working directory of the test file's own, made before its tests, with the CLI pointed at an
 * embedded database inside it (PGLITE_DATA_DIR; DATABASE_URL unset); `prepare` fills it. Removed,
 * and the environment restored, after the file's tests.
 */
export function embeddedWorkspace(prefix: string, prepare: (work: string) => Promise<void> = async () => {}): { readonly dir: string } {
  const savedEnv = { ...process.env };
  const workspace = { dir: '' };
  beforeAll(async () => {
    workspace.dir = await mkdtemp(join(tmpdir(), prefix));
    await prepare(workspace.dir);
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DATA_DIR = join(workspace.dir, 'pglite');
  });
  afterAll(async () => {
    process.env = savedEnv;
    if (workspace.dir) await rm(workspace.dir, { recursive: true, force: true });
  });
  return workspace;
}
