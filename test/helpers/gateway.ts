// A gateway serving over a real socket: in this process (as many as a test wants, each from its
// own .meshrc.yaml), or as a child process with its own environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Database } from '../../prisma/database.ts';
import { gatewayStartCommand, nodeArgsOf } from '../../lib/start-command.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export interface RunningGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * The front as `npm start` serves it, on `db`, from the .meshrc.yaml in `dir` (default: the
 * project's, or GATEWAY_CONFIG_DIR of `env`), reading `env` (default: this process's) as
 * `npm start` reads its environment.
 */
export async function startGatewayInProcess(db: Database, { dir, env }: { dir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunningGateway> {
  const { loadMesh } = await import('../../gateway/front/load-mesh.ts');
  const { createFront, listen } = await import('../../gateway/front/server.ts');
  const loaded = await loadMesh({ database: async () => db, ...(env && { env }) }, dir);
  const front = createFront(loaded);
  await loaded.gateway.start(2_000);
  const port = await listen(front.server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await front.close();
      await loaded.gateway.close();
    },
  };
}

/**
 * `npm start` as a child process: the bundle test/global-setup.ts built (PORT=0: it picks a free
 * port and says which); or the front run by other `nodeArgs` (`npm run dev`'s).
 */
export function startGatewayProcess(env: Record<string, string>, nodeArgs?: string[]): Promise<RunningGateway & { child: ChildProcess; output: () => string }> {
  const start = gatewayStartCommand();
  const child = spawn(process.execPath, nodeArgs ?? nodeArgsOf(start), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...start.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`gateway did not start in 90 s:\n${output}`)), 90_000);
    const check = () => {
      const port = /Serving on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      done({
        child,
        url: `http://127.0.0.1:${port}`,
        output: () => output,
        close: () =>
          new Promise((closed) => {
            if (child.exitCode !== null) return closed();
            child.once('exit', () => closed());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`gateway exited with ${code}:\n${output}`));
    });
  });
}

/** A free TCP port on 127.0.0.1 (for servers that cannot be told to pick one and say which): the bench's. */
export { freePort } from '../../bench/children.ts';

/**
 * A GraphQL Mesh command of the project (`mesh dev`, `mesh start`) as a child process serving on
 * `port`, ready once its /healthz answers.
 */
export async function startMeshCommand(args: string[], port: number, env: Record<string, string>): Promise<RunningGateway & { output: () => string }> {
  const child = spawn(join(PROJECT_ROOT, 'node_modules', '.bin', 'mesh'), args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), FORK: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const close = () =>
    new Promise<void>((closed) => {
      if (child.exitCode !== null || child.signalCode !== null) return closed();
      child.once('exit', () => closed());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mesh ${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, close, output: () => output };
    await new Promise((wait) => setTimeout(wait, 250));
  }
  await close();
  throw new Error(`mesh ${args.join(' ')} did not serve within 90 s:\n${output}`);
}
