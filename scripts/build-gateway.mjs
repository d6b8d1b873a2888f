// Bundles the gateway's own TypeScript (gateway/, resolvers/, prisma/, lib/) into
// dist/gateway.mjs for `npm start`, leaving every package in node_modules to Node. Running the
// sources through tsx's loader instead costs seconds more at start and far more memory
// (its hooks run in a second thread that holds every transformed module); see README, Timings.
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const started = performance.now();
const { outputFiles } = await build({
  entryPoints: [resolve(root, 'gateway', 'front', 'main.ts')],
  outfile: resolve(root, 'dist', 'gateway.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});
// Several gateways may start on one host at once: each file is written aside and renamed into
// place, so no process ever imports a half-written bundle.
for (const file of outputFiles) {
  await mkdir(dirname(file.path), { recursive: true });
  const aside = `${file.path}.${process.pid}.tmp`;
  await writeFile(aside, file.contents);
  await rename(aside, file.path);
}
if (process.argv.includes('--verbose')) console.log(`dist/gateway.mjs built in ${Math.round(performance.now() - started)} ms`);
