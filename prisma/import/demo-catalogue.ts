// The catalogue of prisma/catalogue.yaml (each set from its source), the full @iconify/json
// collection, or one source named on the command line, with each set's settings taken from
// that config.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { PrismaClient } from '../generated/client.ts';
import { ConfigError, loadCatalogueConfig, type CatalogueConfig, type CatalogueSetConfig } from './catalogue-config.ts';
import { importSets, type ImportEvent, type ImportSummary, type SetSettings } from './import-sets.ts';
import { fullCollectionSetFiles, locateFullCollection, setFilesFor } from './sources.ts';

function settingsOf(set: CatalogueSetConfig | undefined): SetSettings {
  if (!set) return { premium: false };
  return {
    premium: set.premium,
    ...(set.defaultStyle ? { defaultStyle: set.defaultStyle } : {}),
    ...(set.owners ? { owners: set.owners } : {}),
    ...(set.renames ? { renames: set.renames } : {}),
  };
}

export function setOptionsFrom(config: CatalogueConfig): (prefix: string) => SetSettings {
  const byPrefix = new Map(config.sets.map((set) => [set.prefix, set]));
  return (prefix) => settingsOf(byPrefix.get(prefix));
}

/** Worker threads for cleaning SVG folders: one per core the process may use (the importing thread mostly waits on them meanwhile). */
export function defaultCleanupWorkers(): number {
  return Math.max(1, availableParallelism());
}

export interface CatalogueImportOptions {
  all?: boolean;
  force?: boolean;
  /** Only these prefixes (of the demo catalogue, or of the full collection with `all`). */
  only?: readonly string[];
  configPath?: string;
  onEvent?: (event: ImportEvent) => void;
  log?: (line: string) => void;
  dryRun?: boolean;
  strict?: boolean;
  /** Worker threads for cleaning folders of SVG files (default: defaultCleanupWorkers()). */
  workers?: number;
}

export async function importCatalogue(prisma: PrismaClient, options: CatalogueImportOptions = {}): Promise<ImportSummary> {
  const config = await loadCatalogueConfig(options.configPath);
  let files = options.all
    ? await fullCollectionSetFiles(await locateFullCollection(options.log ?? (() => {})))
    : setFilesFor(config.sets, { workers: options.workers ?? defaultCleanupWorkers() });
  if (options.only?.length) {
    const wanted = new Set(options.only);
    const unknown = options.only.filter((prefix) => !files.some((file) => file.prefix === prefix));
    if (unknown.length) throw new UnknownSetError(unknown, options.all ?? false);
    files = files.filter((file) => wanted.has(file.prefix));
  }
  return importSets(prisma, files, {
    optionsFor: setOptionsFrom(config),
    force: options.force ?? false,
    dryRun: options.dryRun ?? false,
    strict: options.strict ?? false,
    onEvent: options.onEvent,
  });
}

export interface SourceImportOptions {
  /** A folder of SVG files, or an IconifyJSON file. */
  source: string;
  prefix: string;
  name?: string;
  /** SPDX id. */
  license?: string;
  /** Every icon premium (else the config's rule for the prefix, if it lists it). */
  premium?: boolean;
  dryRun?: boolean;
  strict?: boolean;
  force?: boolean;
  configPath?: string;
  workers?: number;
  onEvent?: (event: ImportEvent) => void;
}

/** One source named on the command line; a prefix the config lists keeps its settings there (owners, renames, premium). */
export async function importSource(prisma: PrismaClient, options: SourceImportOptions): Promise<ImportSummary> {
  const path = resolve(options.source);
  if (!existsSync(path)) throw new ConfigError(`--source: ${options.source} does not exist`);
  const config = await loadCatalogueConfig(options.configPath);
  const listed = config.sets.find((set) => set.prefix === options.prefix);
  const set: CatalogueSetConfig = {
    ...(listed ?? { premium: false }),
    prefix: options.prefix,
    source: statSync(path).isDirectory() ? { kind: 'folder', path } : { kind: 'json', path },
    ...(options.name ? { name: options.name } : {}),
    ...(options.license ? { license: { ...listed?.license, spdx: options.license } } : {}),
    ...(options.premium ? { premium: true } : {}),
  };
  const files = setFilesFor([set], { workers: options.workers ?? defaultCleanupWorkers() });
  return importSets(prisma, files, {
    optionsFor: () => settingsOf(set),
    force: options.force ?? false,
    dryRun: options.dryRun ?? false,
    strict: options.strict ?? false,
    onEvent: options.onEvent,
  });
}

export function importDemoCatalogue(prisma: PrismaClient, onEvent?: (event: ImportEvent) => void): Promise<ImportSummary> {
  return importCatalogue(prisma, { onEvent });
}

export class UnknownSetError extends Error {
  override name = 'UnknownSetError';
  constructor(prefixes: readonly string[], all: boolean) {
    super(
      `Unknown set${prefixes.length > 1 ? 's' : ''}: ${prefixes.join(', ')} ` +
        (all ? '(not in @iconify/json)' : '(not in prisma/catalogue.yaml; use --all for every Iconify set)'),
    );
  }
}
