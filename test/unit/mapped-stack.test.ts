// Stacks logged by the bundle are mapped to the sources' lines by the bundle's own map, read when
// a stack needs it (npm start runs without --enable-source-maps: lib/mapped-stack.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStackMapper, stackSerializers } from '../../lib/mapped-stack.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

const SOURCE = `// a module of the "project"
export function checkPort(port: number): number {
  if (port > 65535) {
    throw new Error(\`port \${port} is out of range\`);
  }
  return port;
}
`;
const ENTRY = `import { checkPort } from './check.ts';
try { checkPort(70000); } catch (error) { process.stdout.write((error as Error).stack ?? ''); }
`;
// A process that crashes, as the gateway's main.ts reports it (uncaught, or a rejection), with a
// log line still in the logger's buffer (pino writes it at exit).
const CRASH = `import { createStackMapper, reportCrashesMapped } from ${JSON.stringify(join(PROJECT_ROOT, 'lib', 'mapped-stack.ts'))};
import { logger } from ${JSON.stringify(join(PROJECT_ROOT, 'lib', 'logger.ts'))};
import { checkPort } from './check.ts';
reportCrashesMapped(createStackMapper(import.meta.dirname));
logger.info({ msg: 'the line before the crash' });
if (process.argv[2] === 'rejection') void Promise.resolve().then(() => checkPort(70000));
else setTimeout(() => checkPort(70000), 1);
`;

describe('stacks mapped when logged', () => {
  let root: string;
  let dist: string;
  let stack: string;

  beforeAll(async () => {
    // Inside the project, so that the crash bundle finds pino in node_modules as the gateway does.
    mkdirSync(join(PROJECT_ROOT, 'test', 'output'), { recursive: true });
    root = mkdtempSync(join(PROJECT_ROOT, 'test', 'output', 'mapped-stack-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'check.ts'), SOURCE);
    writeFileSync(join(root, 'src', 'main.ts'), ENTRY);
    writeFileSync(join(root, 'src', 'crash.ts'), CRASH);
    dist = join(root, 'dist');
    const options = { bundle: true, platform: 'node', format: 'esm', packages: 'external', sourcemap: 'linked', logLevel: 'silent' } as const;
    await build({ ...options, entryPoints: [join(root, 'src', 'main.ts')], outfile: join(dist, 'app.mjs') });
    await build({ ...options, entryPoints: [join(root, 'src', 'crash.ts')], outfile: join(dist, 'crash.mjs') });
    // As npm start runs the bundle: no --enable-source-maps, so the stack is the bundle's.
    stack = execFileSync(process.execPath, [join(dist, 'app.mjs')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('rewrites the bundle frames to the TypeScript line and column that threw', () => {
    expect(stack).toContain(`${pathToFileURL(join(dist, 'app.mjs')).href}:`);
    const mapped = createStackMapper(dist)(stack);
    expect(mapped).toContain(`${pathToFileURL(join(root, 'src', 'check.ts')).href}:4:11`);
    expect(mapped).toContain(`${pathToFileURL(join(root, 'src', 'main.ts')).href}:2:7`);
    expect(mapped).not.toContain('app.mjs');
    expect(mapped.split('\n')[0]).toBe('Error: port 70000 is out of range');
  });

  it('leaves frames of other files, and Node’s own, as they are', () => {
    const foreign = ['Error: x', '    at run (file:///elsewhere/dist/app.mjs:3:9)', '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', '    at /opt/lib/other.mjs:10:2'].join('\n');
    expect(createStackMapper(dist)(foreign)).toBe(foreign);
  });

  it('logs the stack as it is when the bundle has no map', () => {
    const moved = join(root, 'app.mjs.map.aside');
    renameSync(join(dist, 'app.mjs.map'), moved);
    try {
      expect(createStackMapper(dist)(stack)).toBe(stack);
    } finally {
      renameSync(moved, join(dist, 'app.mjs.map'));
    }
  });

  it.each(['exception', 'rejection'])('prints a crash (uncaught %s) mapped on stderr, writes the waiting log lines, and exits 1', (kind) => {
    const crash = spawnSync(process.execPath, [join(dist, 'crash.mjs'), kind], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'info' } });
    expect(crash.status).toBe(1);
    expect(crash.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['the line before the crash']);
    expect(crash.stderr.split('\n')[0]).toBe('Error: port 70000 is out of range');
    expect(crash.stderr).toContain(`${pathToFileURL(join(root, 'src', 'check.ts')).href}:4:11`);
    expect(crash.stderr).toContain(`${pathToFileURL(join(root, 'src', 'crash.ts')).href}:`);
    expect(crash.stderr).not.toContain('crash.mjs');
  });

  it('maps the `stack` and `err` of a log line through pino', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ serializers: stackSerializers(createStackMapper(dist)) }, sink);
    const error = new Error('port 70000 is out of range');
    error.stack = stack;
    log.error({ msg: 'unexpected error', stack });
    log.error({ msg: 'server error', err: error });
    const [plain, withError] = lines.map((line) => JSON.parse(line) as { stack?: string; err?: { message: string; stack: string } });
    expect(plain!.stack).toContain('check.ts:4:11');
    expect(withError!.err!.message).toBe('port 70000 is out of range');
    expect(withError!.err!.stack).toContain('check.ts:4:11');
    expect(JSON.stringify(lines)).not.toContain('app.mjs');
  });
});
