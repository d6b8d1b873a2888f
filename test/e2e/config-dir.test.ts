// GATEWAY_CONFIG_DIR with a verbatim copy of the project's .meshrc.yaml serves (its
// `source: ./resolvers/mesh-source.ts` is the project's), and a config that cannot be used
// stops `npm start` with one line naming the file, not Mesh's logs and a stack trace.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { gatewayStartCommand, nodeArgsOf } from '../../lib/start-command.ts';
import { startGatewayProcess } from '../helpers/gateway.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-config-dir-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A new folder under the test's root holding `config` as .meshrc.yaml (none when undefined). */
async function configFolder(name: string, config?: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  if (config !== undefined) await writeFile(join(dir, '.meshrc.yaml'), config);
  return dir;
}

/** `npm start` (the bundle) until it exits; it must, since the config stops it. */
function failedStart(configDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const start = gatewayStartCommand();
    const child = spawn(process.execPath, nodeArgsOf(start), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...start.env, GATEWAY_CONFIG_DIR: configDir, PGLITE_DATA_DIR: 'memory://', PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('GATEWAY_CONFIG_DIR', () => {
  it('serves from a verbatim copy of the project .meshrc.yaml in another folder', async () => {
    const dir = await configFolder('copy');
    await copyFile(join(PROJECT_ROOT, '.meshrc.yaml'), join(dir, '.meshrc.yaml'));
    expect(await readFile(join(dir, '.meshrc.yaml'), 'utf8')).toContain('source: ./resolvers/mesh-source.ts');
    const gateway = await startGatewayProcess({ GATEWAY_CONFIG_DIR: dir, PGLITE_DATA_DIR: 'memory://' });
    try {
      const openapi = await fetch(`${gateway.url}/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain('/icons');
      expect((await fetch(`${gateway.url}/icons`)).status).toBe(401);
    } finally {
      await gateway.close();
    }
  });

  const project = () => readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8');
  it.each([
    ['a folder without .meshrc.yaml', async () => configFolder('empty'), /\/empty\/\.meshrc\.yaml: no such file \(GATEWAY_CONFIG_DIR must name a folder/],
    ['a folder that does not exist', async () => join(root, 'missing'), /\/missing\/\.meshrc\.yaml: no such file/],
    ['broken YAML', async () => configFolder('yaml', 'sources:\n  - name: [oops\n'), /\/yaml\/\.meshrc\.yaml: .*at line \d+, column \d+$/],
    [
      'a source module that is nowhere',
      async () => configFolder('source', (await project()).replace('./resolvers/mesh-source.ts', './resolvers/no-such-source.ts')),
      /\/source\/\.meshrc\.yaml: sources\[0\]\.handler\.graphql\.source: cannot load "\.\/resolvers\/no-such-source\.ts" \(looked beside the config, then in the project\): Cannot find module/,
    ],
    [
      'a plugin that is not installed',
      async () => configFolder('plugin', (await project()).replace('  - maxDepth:', '  - noSuchMeshPlugin: {}\n  - maxDepth:')),
      /\/plugin\/\.meshrc\.yaml: Unable to find plugin matching noSuchMeshPlugin$/,
    ],
  ])('stops with one line on %s', async (_name, folder, message) => {
    const { code, stdout, stderr } = await failedStart(await folder());
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^error: /);
    expect(stderr.trimEnd()).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
