// Where icon sets are read from: an npm package per set (@iconify-json/<prefix>), the
// @iconify/json package (every set; `import --all`), an IconifyJSON file or a folder of SVG
// files (own-sources.ts). Each source is read lazily, one set at a time, so a full import never
// holds more than one set in memory.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { sourceOf, type CatalogueSetConfig } from './catalogue-config.ts';
import type { StageTimes } from './stages.ts';
import type { SetSource } from './map-set.ts';
import { folderDigest, loadFolderSet, loadJsonFileSet, metadataPathOf, type Rejection, type SetOverrides } from './own-sources.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

const require = createRequire(import.meta.url);

export interface LoadOptions {
  /** A folder's cleanup: files cleaned so far, and in all. */
  onProgress?: (done: number, total: number) => void;
}

export interface SetFile {
  prefix: string;
  /**
   * Reads and parses the set; `digest` covers every byte it was built from; `rejected`: files left
   * out, and why; `warnings`: problems that left every file in; `stages`: its reading and cleaning
   * times, when it times them apart.
   */
  load(options?: LoadOptions): Promise<{ source: SetSource; digest: string; rejected?: Rejection[]; warnings?: string[]; renames?: Record<string, string>; defaultStyle?: string; stages?: StageTimes }>;
  /** The digest alone, when it is much cheaper than load() (a folder whose files would be cleaned). */
  peekDigest?(): Promise<string>;
}

async function readJson(path: string, hash: ReturnType<typeof createHash>): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  hash.update(text);
  return JSON.parse(text);
}

async function readJsonIfExists(path: string, hash: ReturnType<typeof createHash>): Promise<unknown> {
  return existsSync(path) ? readJson(path, hash) : undefined;
}

export class MissingSetError extends Error {
  override name = 'MissingSetError';
}

export interface SetFileOptions {
  /** Where @iconify/json is, for sets whose source is `collection` (located on first use otherwise). */
  collection?: () => Promise<string>;
  /** Worker threads for cleaning folders of SVG files. */
  workers?: number;
}

/** Each configured set from its source. */
export function setFilesFor(sets: readonly CatalogueSetConfig[], options: SetFileOptions = {}): SetFile[] {
  return sets.map((set) => {
    const source = sourceOf(set);
    const overrides: SetOverrides = { ...(set.name ? { name: set.name } : {}), ...(set.license ? { license: set.license } : {}) };
    switch (source.kind) {
      case 'package':
        return packageSetFile(set.prefix, source.package, overrides);
      case 'collection':
        return {
          prefix: set.prefix,
          async load() {
            const dir = await (options.collection ?? (() => locateFullCollection(() => {})))();
            const file = (await fullCollectionSetFiles(dir)).find((candidate) => candidate.prefix === set.prefix);
            if (!file) throw new MissingSetError(`The set "${set.prefix}" is not in @iconify/json.`);
            return withOverrides(await file.load(), overrides);
          },
        };
      case 'json':
        return { prefix: set.prefix, load: () => loadJsonFileSet(set.prefix, source.path, overrides) };
      case 'folder':
        return {
          prefix: set.prefix,
          load: (load) =>
            loadFolderSet({ prefix: set.prefix, folder: source.path, metadata: source.metadata, overrides, workers: options.workers, ...(load?.onProgress ? { onProgress: load.onProgress } : {}) }),
          peekDigest: () => folderDigest(source.path, metadataPathOf(source.path, source.metadata), JSON.stringify(overrides)),
        };
      default:
        throw new Error(`unknown source kind of set "${set.prefix}"`);
    }
  });
}

/** A package or collection set with the config's name or license over its own info. */
function withOverrides(loaded: { source: SetSource; digest: string }, overrides: SetOverrides) {
  if (!overrides.name && !overrides.license) return loaded;
  const info = { ...((loaded.source.info ?? (loaded.source.json as { info?: object }).info ?? {}) as Record<string, unknown>) };
  if (overrides.name) info.name = overrides.name;
  if (overrides.license) info.license = { title: overrides.license.title ?? overrides.license.spdx, spdx: overrides.license.spdx, url: overrides.license.url };
  const digest = createHash('sha256').update(loaded.digest).update(JSON.stringify(overrides)).digest('hex');
  return { source: { ...loaded.source, info }, digest };
}

/** The demo sets: each an installed @iconify-json/<prefix> package (see package.json). */
export function packageSetFiles(sets: readonly CatalogueSetConfig[]): SetFile[] {
  return sets.map(({ prefix }) => packageSetFile(prefix, `@iconify-json/${prefix}`, {}));
}

function packageSetFile(prefix: string, packageName: string, overrides: SetOverrides): SetFile {
  return {
    prefix,
    async load() {
      let dir: string;
      try {
        dir = dirname(require.resolve(`${packageName}/package.json`));
      } catch {
        throw new MissingSetError(
          `The set "${prefix}" is not installed: add it with \`npm install ${packageName}\`, or remove it from prisma/catalogue.yaml.`,
        );
      }
      const hash = createHash('sha256');
      const pkg = (await readJson(join(dir, 'package.json'), hash)) as { version: string };
      const json = await readJson(join(dir, 'icons.json'), hash);
      const info = await readJsonIfExists(join(dir, 'info.json'), hash);
      const metadata = await readJsonIfExists(join(dir, 'metadata.json'), hash);
      const chars = await readJsonIfExists(join(dir, 'chars.json'), hash);
      return withOverrides({ source: { json, info, metadata, chars, version: pkg.version }, digest: hash.digest('hex') }, overrides);
    },
  };
}

/**
 * Every set of the @iconify/json package, in prefix order: those its index (collections.json)
 * lists. Its json/ folder also keeps files of retired sets that the index leaves out (emblemicons
 * holds no icon at all), which an import would report as sets with nothing to import.
 */
export async function fullCollectionSetFiles(packageDir: string): Promise<SetFile[]> {
  const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const jsonDir = join(packageDir, 'json');
  const index = await readFile(join(packageDir, 'collections.json'), 'utf8').then(
    (text) => new Set(Object.keys(JSON.parse(text) as object)),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined; // an older package without an index: every file
      throw error;
    },
  );
  const prefixes = (await readdir(jsonDir))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((prefix) => !index || index.has(prefix))
    .sort();
  return prefixes.map((prefix) => ({
    prefix,
    async load() {
      const hash = createHash('sha256').update(pkg.version);
      const json = await readJson(join(jsonDir, `${prefix}.json`), hash);
      return { source: { json, version: pkg.version }, digest: hash.digest('hex') };
    },
  }));
}

export const FULL_COLLECTION_CACHE = resolve(PROJECT_ROOT, '.data', 'cache');

/**
 * Finds @iconify/json: installed in node_modules, or unpacked in the cache. Otherwise fetches
 * its tarball from the npm registry with `npm pack` (about 104 MB) and unpacks it there.
 */
export async function locateFullCollection(log: (line: string) => void): Promise<string> {
  try {
    return dirname(require.resolve('@iconify/json/package.json'));
  } catch {
    // not installed: use or fill the cache
  }
  const unpacked = join(FULL_COLLECTION_CACHE, 'iconify-json', 'package');
  if (existsSync(join(unpacked, 'package.json'))) return unpacked;
  await mkdir(join(FULL_COLLECTION_CACHE, 'iconify-json'), { recursive: true });
  log('Fetching @iconify/json from the npm registry (about 104 MB)...');
  const pack = spawnSync('npm', ['pack', '@iconify/json', '--json', '--pack-destination', FULL_COLLECTION_CACHE], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (pack.status !== 0) throw new MissingSetError(`npm pack @iconify/json failed (exit ${pack.status})`);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  const tarball = join(FULL_COLLECTION_CACHE, filename.replace(/^@/, '').replace('/', '-'));
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', join(FULL_COLLECTION_CACHE, 'iconify-json')], { stdio: 'inherit' });
  if (untar.status !== 0) throw new MissingSetError(`could not unpack ${tarball}`);
  return unpacked;
}
