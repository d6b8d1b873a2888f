// Bundles the gateway's own TypeScript (gateway/, resolvers/, prisma/, lib/) into
// dist/gateway.mjs for `npm start`, leaving every package in node_modules to Node. Running the
// sources through tsx's loader instead costs about 5 s more at start and 200 MB more memory
// (its hooks run in a second thread that holds every transformed module); see README, Timings.
import { build } from 'esbuild';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const started = performance.now();
await build({
  entryPoints: [resolve(root, 'gateway', 'main.ts')],
  outfile: resolve(root, 'dist', 'gateway.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
if (process.argv.includes('--verbose')) console.log(`dist/gateway.mjs built in ${Math.round(performance.now() - started)} ms`);
