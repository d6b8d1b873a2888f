// `npm run lint` lints the OpenAPI document as a gateway serves it: the project's .meshrc.yaml
// is loaded as `npm start` loads it (no database is opened: the document needs none), the
// document is fetched from /openapi.json over a socket and written to a temporary file, and
// Redocly CLI (devDependency, pinned) checks it with its recommended ruleset (redocly.yaml).
// Any problem fails, warnings included. Tests use the same two steps.
//   npx tsx scripts/lint-openapi.ts [config dir]
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

/** The OpenAPI document served at /openapi.json by a gateway built from the .meshrc.yaml in `dir`. */
export async function servedOpenApiDocument(dir = PROJECT_ROOT): Promise<string> {
  const { loadMesh } = await import('../gateway/front/load-mesh.ts');
  const { createFront, listen } = await import('../gateway/front/server.ts');
  // Memory stores whatever this shell's environment says: nothing here is counted.
  const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
  const loaded = await loadMesh({ database: () => Promise.reject(new Error('the OpenAPI document needs no database')), env }, dir);
  const front = createFront(loaded);
  try {
    const port = await listen(front.server, 0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return await response.text();
  } finally {
    await front.close();
    await loaded.gateway.close();
  }
}

/** Redocly CLI's problems with the OpenAPI document `text` (recommended ruleset, redocly.yaml). */
export async function lintOpenApiDocument(text: string): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, text);
    const cli = createRequire(join(PROJECT_ROOT, 'package.json')).resolve('@redocly/cli/bin/cli.js');
    const args = [cli, 'lint', file, '--config', join(PROJECT_ROOT, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'];
    // No telemetry, no update check: the lint talks to nobody.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { code, stdout, stderr } = await run(process.execPath, args, env);
    const start = stdout.indexOf('{');
    if (start < 0) throw new Error(`redocly lint exited with ${code} and no report:\n${stderr}`);
    return (JSON.parse(stdout.slice(start)) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

async function main(): Promise<number> {
  const problems = await lintOpenApiDocument(await servedOpenApiDocument(process.argv[2]));
  for (const problem of problems) {
    console.error(`${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location.map((l) => l.pointer).join(', ')})`);
  }
  console.log(problems.length ? `OpenAPI document: ${problems.length} problem(s)` : 'OpenAPI document: no problems (Redocly recommended ruleset)');
  return problems.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.env.LOG_LEVEL ??= 'warn'; // no access-log line for the one request
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
