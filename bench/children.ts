// Child processes of the benchmark: servers started with `node [--import tsx] <script>`, writing
// into their log files, ready when they print "Serving on http://host:port", stopped with SIGTERM
// (SIGKILL only if one ignores it), and one-shot commands (the operator CLI, another checkout's
// build steps) with their output captured.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export interface ServerChild {
  name: string;
  pid: number;
  /** Base URL, for example http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** From spawn to the "Serving on" line. */
  readyMs: number;
  readyLine: string;
  /** Last lines of output (stdout and stderr), for error messages. */
  tail(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  script: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  timeoutMs: number;
  /** Node flags before the script (the start script's, for the gateway). */
  nodeArgs?: string[];
  /** Run `script` as JavaScript in plain Node (the built gateway) instead of through tsx. */
  plainNode?: boolean;
  /** Keep stdin open as a pipe: a child that watches it exits when this process dies. */
  stdinPipe?: boolean;
  /** Working directory (default: this project; another checkout's gateway runs in its own). */
  cwd?: string;
  /**
   * For a server that does not print "Serving on <url>" (the Iconify API): the line that says it
   * is ready, and the URL it was told to listen on.
   */
  ready?: { line: RegExp; url: string };
}

const SERVING = /Serving on (http:\/\/\S+?:\d+)/;
const TAIL_LINES = 40;

/** Everything this module started and has not seen exit, for a last-resort cleanup. */
const running = new Set<ServerChild>();

/** A port nobody listens on right now, for a server that cannot be told to pick its own and say which. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function runningChildren(): ServerChild[] {
  return [...running];
}

export function startServer(options: StartOptions): Promise<ServerChild> {
  const started = performance.now();
  const loader = [...(options.nodeArgs ?? []), ...(options.plainNode ? [] : ['--import', 'tsx'])];
  const argv = [...loader, options.script, ...(options.args ?? [])];
  const commandLine = `node ${argv.join(' ')}`;
  // The child writes straight into its log file, not through a pipe to this process: this
  // process runs the load generator, and a child whose output waits on a busy reader buffers
  // it in memory (and would report that as its own memory).
  appendFileSync(options.logFile, `\n=== ${new Date().toISOString()} ${options.name}: ${commandLine}\n`);
  const outputStart = statSync(options.logFile).size;
  const output = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, argv, {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: options.env,
    stdio: [options.stdinPipe ? 'pipe' : 'ignore', output, output],
  });
  closeSync(output); // the child holds its own copy
  let exitCode: number | null | undefined;
  let exitSignal: NodeJS.Signals | null = null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      resolve();
    });
  });
  /** The first `limit` bytes of the child's output (its log file grows by a line per request). */
  const outputHead = (limit = 1 << 20) => readRange(options.logFile, outputStart, limit);
  const tail = () => {
    const end = statSync(options.logFile).size;
    const from = Math.max(outputStart, end - 16_384);
    return readRange(options.logFile, from, end - from).split('\n').slice(-TAIL_LINES).join('\n');
  };

  let server: ServerChild | undefined;

  return new Promise<ServerChild>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      void stopChild(child, exitPromise).finally(() => {
        reject(new Error(`${options.name}: ${message}\n--- last output (${options.logFile}) ---\n${tail()}`));
      });
    };
    const timer = setTimeout(() => fail(`not serving after ${(options.timeoutMs / 1000).toFixed(0)} s`), options.timeoutMs);

    const readyWhen = options.ready?.line ?? SERVING;
    const poll = setInterval(() => {
      const line = outputHead()
        .split('\n')
        .find((candidate) => readyWhen.test(candidate));
      if (!line || settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      server = {
        name: options.name,
        pid: child.pid!,
        url: options.ready?.url ?? SERVING.exec(line)![1]!,
        readyMs: performance.now() - started,
        readyLine: line,
        tail,
        stop: async () => {
          await stopChild(child, exitPromise);
          if (server) running.delete(server);
        },
      };
      running.add(server);
      resolve(server);
    }, 50);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    void exitPromise.then(() => {
      fail(`exited before serving (${exitSignal ? `signal ${exitSignal}` : `code ${exitCode}`})`);
      if (server) running.delete(server);
    });
  });
}

function readRange(file: string, from: number, length: number): string {
  const buffer = Buffer.alloc(Math.max(0, length));
  const fd = openSync(file, 'r');
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, from)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** SIGTERM, then SIGKILL after `graceMs` if the child is still there. Resolves once it exited. */
async function stopChild(child: ChildProcess, exitPromise: Promise<void>, graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    exitPromise.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    console.error(`warning: pid ${child.pid} did not stop within ${graceMs / 1000} s of SIGTERM; sending SIGKILL`);
    child.kill('SIGKILL');
    await exitPromise;
  }
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <script> <args>` in this project to completion. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', 'tsx', script, ...args], { cwd: PROJECT_ROOT, env });
}

/** Runs `command <args>` to completion, its output captured. */
export function runCommand(command: string, args: string[], { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The result of a command that must have exited 0; else an error with `what` and its output. */
export function mustSucceed(what: string, result: CommandResult): CommandResult {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${(result.stderr.trim() || result.stdout.trim()).split('\n').slice(-TAIL_LINES).join('\n')}`);
  return result;
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The CPU time (user and system, all threads) a running process has used, in seconds, from
 * /proc/<pid>/stat; undefined when it cannot be read. Synchronous, so that it is read at the
 * moment a measured run starts and ends.
 */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

export interface ProcessMemory {
  /** Resident set size now, in kB. */
  rssKb: number;
  /** Peak resident set size, in kB. */
  peakKb: number;
}

/** VmRSS and VmHWM of a running process, from /proc/<pid>/status. */
export async function processMemory(pid: number): Promise<ProcessMemory | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s*kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
  } catch {
    return undefined;
  }
}
