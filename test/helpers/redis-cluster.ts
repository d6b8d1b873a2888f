// A real three-node Redis Cluster for the tests, started from the machine's redis-server and
// redis-cli in a temporary folder and stopped afterwards. Under CI=true missing binaries fail
// the suite; elsewhere the cluster cases skip with a reason.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serviceCheck } from './services.ts';

const run = promisify(execFile);

export const redisClusterUnavailable = serviceCheck('Redis Cluster binaries', 'redis-server, redis-cli', async () => {
  await run('redis-server', ['--version']);
  await run('redis-cli', ['--version']);
});

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Three ports whose cluster-bus ports (+10000) are free too. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 9_000);
    if (ports.includes(port)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

export interface RunningCluster {
  /** REDIS_CLUSTER_NODES for these nodes. */
  nodes: string;
  /** How many keys matching `pattern` each node holds. */
  keysPerNode(pattern: string): Promise<number[]>;
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<RunningCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const ports = await freePorts(3);
  const servers: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((done) => {
            if (server.exitCode !== null) return done();
            server.once('exit', () => done());
            server.kill('SIGTERM');
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await waitFor(async () => (await run('redis-cli', ['-p', String(port), 'ping'])).stdout.trim() === 'PONG');
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      await waitFor(async () => (await run('redis-cli', ['-p', String(port), 'cluster', 'info'])).stdout.includes('cluster_state:ok'));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const keysPerNode = (pattern: string) =>
    Promise.all(
      ports.map(async (port) => (await run('redis-cli', ['-p', String(port), '--scan', '--pattern', pattern])).stdout.split('\n').filter(Boolean).length),
    );
  return { nodes: ports.map((port) => `127.0.0.1:${port}`).join(','), keysPerNode, stop };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('Redis Cluster did not come up in time');
    await new Promise((done) => setTimeout(done, 100));
  }
}
