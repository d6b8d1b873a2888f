// Bundles the gateway's own TypeScript (gateway/, resolvers/, prisma/, lib/) into
// dist/gateway.mjs for `npm start`, leaving every package in node_modules to Node. Running the
// sources through tsx's loader instead costs seconds more at start and far more memory
// (its hooks run in a second thread that holds every transformed module); see README, Timings.
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const started = performance.now();

/**
 * Writes `contents` to `path` aside and renames it into place: several gateways may start on one
 * host at once, and no process may ever import a half-written bundle (or read a half-written file).
 */
async function writeInPlace(path, contents) {
  await mkdir(dirname(path), { recursive: true });
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, contents);
  await rename(aside, path);
}

// Prisma's generated client imports its query compiler's WebAssembly from a module that holds it
// as one 4.4 MB base64 string literal. V8 keeps both that module's text and the string for as
// long as the process runs (8.7 MB of heap, the largest strings in a heap snapshot). The bundle
// imports a stand-in instead: the same bytes, decoded here into a file beside the bundle. Prisma's
// loader passes what it imports to `Buffer.from(wasm, 'base64')`, which takes an object's
// `valueOf()` (Node's documented `Buffer.from(object)`): the stand-in reads the file then, and
// nothing keeps the bytes once the module is compiled.
const QUERY_COMPILER_WASM = /^@prisma\/client\/runtime\/query_compiler_[\w.]+\.wasm-base64\.mjs$/;
const queryCompilerFromFile = {
  name: 'query-compiler-from-file',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: QUERY_COMPILER_WASM }, ({ path }) => ({ path, namespace: 'query-compiler-wasm' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'query-compiler-wasm' }, async ({ path }) => {
      const { wasm } = await import(pathToFileURL(createRequire(resolve(root, 'package.json')).resolve(path)).href);
      const file = basename(path).replace('.wasm-base64.mjs', '.wasm');
      await writeInPlace(resolve(root, 'dist', file), Buffer.from(wasm, 'base64'));
      return { contents: `import { readFileSync } from 'node:fs';\nexport const wasm = { valueOf: () => readFileSync(new URL('./${file}', import.meta.url)) };\n`, loader: 'js' };
    });
  },
};
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
  plugins: [queryCompilerFromFile],
});
for (const file of outputFiles) await writeInPlace(file.path, file.contents);
if (process.argv.includes('--verbose')) console.log(`dist/gateway.mjs built in ${Math.round(performance.now() - started)} ms`);
