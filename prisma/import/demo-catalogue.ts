// The demo catalogue of prisma/catalogue.yaml, and the full @iconify/json collection, with
// each set's settings taken from that config.
import type { PrismaClient } from '../generated/client.ts';
import { loadCatalogueConfig, type CatalogueConfig } from './catalogue-config.ts';
import { importSets, type ImportEvent, type ImportSummary } from './import-sets.ts';
import type { SetOptions } from './map-set.ts';
import { fullCollectionSetFiles, locateFullCollection, packageSetFiles } from './sources.ts';

export function setOptionsFrom(config: CatalogueConfig): (prefix: string) => SetOptions {
  const byPrefix = new Map(config.sets.map((set) => [set.prefix, set]));
  return (prefix) => {
    const set = byPrefix.get(prefix);
    return set?.defaultStyle ? { premium: set.premium, defaultStyle: set.defaultStyle } : { premium: set?.premium ?? false };
  };
}

export interface CatalogueImportOptions {
  all?: boolean;
  force?: boolean;
  /** Only these prefixes (of the demo catalogue, or of the full collection with `all`). */
  only?: readonly string[];
  configPath?: string;
  onEvent?: (event: ImportEvent) => void;
  log?: (line: string) => void;
}

export async function importCatalogue(prisma: PrismaClient, options: CatalogueImportOptions = {}): Promise<ImportSummary> {
  const config = await loadCatalogueConfig(options.configPath);
  let files = options.all
    ? await fullCollectionSetFiles(await locateFullCollection(options.log ?? (() => {})))
    : packageSetFiles(config.sets);
  if (options.only?.length) {
    const wanted = new Set(options.only);
    const unknown = options.only.filter((prefix) => !files.some((file) => file.prefix === prefix));
    if (unknown.length) throw new UnknownSetError(unknown, options.all ?? false);
    files = files.filter((file) => wanted.has(file.prefix));
  }
  return importSets(prisma, files, { optionsFor: setOptionsFrom(config), force: options.force ?? false, onEvent: options.onEvent });
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
