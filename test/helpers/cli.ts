// The operator CLI as an operator runs it: `cli/main.ts` in a child process of its own.
import { spawn, type ChildProcess } from 'node:child_process';
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
