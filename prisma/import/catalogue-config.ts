// The catalogue config (prisma/catalogue.yaml): which icon sets the catalogue holds, where each
// is read from (an @iconify-json package, the full @iconify/json, an IconifyJSON file or a
// folder of SVG files), which icons are premium and which accounts own them. Validated once,
// with messages naming the key; relative paths are resolved against the config file's folder.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError, validateConfig } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export { ConfigError };

export const DEFAULT_CATALOGUE_CONFIG = resolve(PROJECT_ROOT, 'prisma', 'catalogue.yaml');

export const PREFIX_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const prefixSchema = z.string().regex(PREFIX_PATTERN, 'must be an Iconify prefix such as "mdi" or "fluent-emoji-flat"');
const styleSchema = z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'must be a lowercase word such as "outline"');
/** Icon names or globs (`*` any run of characters, `?` one): `["logo-*", "star"]`. */
const globList = z.array(z.string().min(1, 'must not be empty')).min(1, 'must list at least one icon name or glob');
const spdxSchema = z.string().regex(/^[A-Za-z0-9.+-]+( (AND|OR|WITH) [A-Za-z0-9.+-]+)*$/, 'must be an SPDX license id such as "MIT" or "CC-BY-4.0"');

export const licenseSchema = z
  .object({ spdx: spdxSchema, url: z.url('must be a URL').optional(), title: z.string().min(1).optional() })
  .strict();

const sourceSchema = z
  .object({
    /** An installed npm package in @iconify-json's layout (icons.json, info.json, metadata.json). */
    package: z.string().regex(/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/, 'must be an npm package name such as "@iconify-json/mdi"').optional(),
    /** The set of that prefix in the full @iconify/json package. */
    collection: z.literal(true, 'must be true (the set of this prefix in @iconify/json)').optional(),
    /** An IconifyJSON file. */
    json: z.string().min(1, 'must be a path to an IconifyJSON file').optional(),
    /** A folder of SVG files (one set per folder). */
    folder: z.string().min(1, 'must be a path to a folder of SVG files').optional(),
    /** The folder's metadata file; default: metadata.yaml, metadata.yml or metadata.json in the folder, if there. */
    metadata: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((source, context) => {
    const kinds = (['package', 'collection', 'json', 'folder'] as const).filter((kind) => source[kind] !== undefined);
    if (kinds.length !== 1) {
      context.addIssue({ code: 'custom', message: `must name exactly one of package, collection, json, folder (got ${kinds.length ? kinds.join(', ') : 'none'})` });
    }
    if (source.metadata !== undefined && source.folder === undefined) {
      context.addIssue({ code: 'custom', path: ['metadata'], message: 'only a folder source has a metadata file' });
    }
  });

export type SourceConfig =
  | { kind: 'package'; package: string }
  | { kind: 'collection' }
  | { kind: 'json'; path: string }
  | { kind: 'folder'; path: string; metadata?: string };

const setEntry = z
  .object({
    prefix: prefixSchema,
    /** Where the set is read from; default: the installed package @iconify-json/<prefix>. */
    source: sourceSchema.optional(),
    /** true: the whole set; a list: the icons whose names match one of its names or globs. */
    premium: z.union([z.boolean(), globList], 'must be true, false or a list of icon names or globs').default(false),
    defaultStyle: styleSchema.optional(),
    /** The set's name, instead of its source's. */
    name: z.string().trim().min(1, 'must not be empty').optional(),
    /** The set's license, instead of its source's. */
    license: licenseSchema.optional(),
    /** Account name -> "*" (every icon of the set) or a list of icon names or globs. */
    owners: z
      .record(
        z.string().trim().min(1, 'account names must not be empty'),
        z.union([z.literal('*'), globList], 'must be "*" (the whole set) or a list of icon names or globs'),
      )
      .optional(),
    /** Renamed icons: old name -> new name. The icon keeps its id, slug, downloads and owners. */
    renames: z.record(z.string().min(1), z.string().min(1, 'must be the icon\'s new name')).optional(),
  })
  .strict();

const catalogueConfig = z
  .object({ sets: z.array(setEntry).min(1, 'must list at least one set') })
  .strict()
  .superRefine((config, context) => {
    const seen = new Set<string>();
    config.sets.forEach((set, index) => {
      if (seen.has(set.prefix)) {
        context.addIssue({ code: 'custom', path: ['sets', index, 'prefix'], message: `"${set.prefix}" is listed twice` });
      }
      seen.add(set.prefix);
    });
  });

type RawSetConfig = z.infer<typeof setEntry>;
export type CatalogueSetConfig = Omit<RawSetConfig, 'source'> & { source?: SourceConfig };
export interface CatalogueConfig {
  sets: CatalogueSetConfig[];
}

function resolveSource(raw: RawSetConfig['source'], baseDir: string): SourceConfig | undefined {
  if (raw === undefined) return undefined;
  const path = (value: string) => (isAbsolute(value) ? value : resolve(baseDir, value));
  if (raw.package !== undefined) return { kind: 'package', package: raw.package };
  if (raw.collection) return { kind: 'collection' };
  if (raw.json !== undefined) return { kind: 'json', path: path(raw.json) };
  return { kind: 'folder', path: path(raw.folder!), ...(raw.metadata ? { metadata: path(raw.metadata) } : {}) };
}

/** `source` names the file (for messages); `baseDir` is where relative paths start (default: the file's folder). */
export function parseCatalogueConfig(text: string, source: string, baseDir = dirname(resolve(source))): CatalogueConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  const config = validateConfig(catalogueConfig, raw, source);
  return {
    sets: config.sets.map(({ source: setSource, ...set }) => {
      const resolved = resolveSource(setSource, baseDir);
      return resolved ? { ...set, source: resolved } : set;
    }),
  };
}

export async function loadCatalogueConfig(path = DEFAULT_CATALOGUE_CONFIG): Promise<CatalogueConfig> {
  return parseCatalogueConfig(await readFile(path, 'utf8'), path);
}

/** The source of a set: its own, else its @iconify-json package. */
export function sourceOf(set: Pick<CatalogueSetConfig, 'prefix' | 'source'>): SourceConfig {
  return set.source ?? { kind: 'package', package: `@iconify-json/${set.prefix}` };
}

/** Whether `name` matches a glob of `*` (any run) and `?` (one character); everything else literal. */
export function matchesGlob(name: string, glob: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${pattern}$`, 'u').test(name);
}

export function matchesAny(name: string, globs: readonly string[]): boolean {
  return globs.some((glob) => matchesGlob(name, glob));
}
