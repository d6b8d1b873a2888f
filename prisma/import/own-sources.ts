// Sets of the catalogue's own: an IconifyJSON file, or a folder of SVG files with an optional
// metadata file beside them. Both become the same parsed IconifyJSON the @iconify-json packages
// give (plus per-icon extras from the metadata), so one mapping and one writer serve every set.
// A file that cannot be used is reported (file and reason) and left out; the rest imports.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { IconifyInfo, IconifyJSON } from '@iconify/types';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError, validateConfig } from '../../lib/config-validation.ts';
import { licenseSchema, type CatalogueSetConfig } from './catalogue-config.ts';
import { EXTRAS_KEY } from './export-set.ts';
import type { StageTimes } from './stages.ts';
import type { IconExtras, SetSource } from './map-set.ts';
import { checkIconBody, cleanSvgFiles, MAX_SVG_BYTES, tooLarge } from './svg-clean.ts';
import { slugify } from './text.ts';

/** Bump when what a folder or file becomes changes: the digest of every such set moves with it. */
export const OWN_SOURCE_VERSION = 1;

export interface Rejection {
  /** The file (a folder source) or the icon name (an IconifyJSON file). */
  file: string;
  reason: string;
}

export interface LoadedSet {
  source: SetSource;
  digest: string;
  rejected: Rejection[];
  /** Problems that leave every icon in, one line each (a metadata entry that names no SVG file). */
  warnings?: string[];
  /** Renames its metadata declares (old name -> new name). */
  renames?: Record<string, string>;
  /** The style of icons that say nothing else, from its metadata (the config's `defaultStyle` wins). */
  defaultStyle?: string;
  /** A folder's reading and cleaning times, in milliseconds. */
  stages?: Pick<StageTimes, 'read' | 'clean'>;
}

const stringList = z.array(z.string().trim().min(1, 'must not be empty'));

const iconMetadata = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').optional(),
    tags: stringList.optional(),
    keywords: stringList.optional(),
    category: z.string().trim().min(1, 'must not be empty').optional(),
    style: z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'must be a lowercase word such as "outline"').optional(),
    hidden: z.boolean().optional(),
  })
  .strict();

const metadataSchema = z
  .object({
    set: z
      .object({
        name: z.string().trim().min(1, 'must not be empty').optional(),
        author: z
          .union([z.string().trim().min(1), z.object({ name: z.string().trim().min(1), url: z.url('must be a URL').optional() }).strict()], 'must be a name, or { name, url }')
          .optional(),
        license: licenseSchema.optional(),
        category: z.string().trim().min(1, 'must not be empty').optional(),
        style: z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'must be a lowercase word such as "outline"').optional(),
      })
      .strict()
      .optional(),
    /** Keyed by the file's name without `.svg` (as written) or by the icon's name. */
    icons: z.record(z.string(), iconMetadata).optional(),
    renames: z.record(z.string().min(1), z.string().min(1)).optional(),
  })
  .strict();

export type FolderMetadata = z.infer<typeof metadataSchema>;

const METADATA_NAMES = ['metadata.yaml', 'metadata.yml', 'metadata.json'];

/** The folder's metadata file: the given path, else the first of METADATA_NAMES in it, else none. */
export function metadataPathOf(folder: string, explicit?: string): string | undefined {
  if (explicit) return explicit;
  return METADATA_NAMES.map((name) => join(folder, name)).find((path) => existsSync(path));
}

export function parseFolderMetadata(text: string, path: string): FolderMetadata {
  let raw: unknown;
  try {
    raw = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  return validateConfig(metadataSchema, raw ?? {}, path);
}

/**
 * An icon name (Iconify's rules: lowercase letters, digits and single hyphens) from a file's
 * name: `My Icon` -> `my-icon`, `Café` -> `cafe`; a name with no Latin letter or digit left
 * (`ドア`) gets `icon-` and a short digest of the file name, so every file keeps a name.
 */
export function iconNameOf(fileName: string): string {
  const slug = slugify(fileName);
  return slug !== '' ? slug : `icon-${createHash('sha256').update(fileName).digest('hex').slice(0, 8)}`;
}

/** A display name from a file's name: kebab-case words capitalised, anything else as written. */
export function displayNameOf(fileName: string): string {
  if (/^[a-z0-9]+(-[a-z0-9]+)*$/.test(fileName)) {
    return fileName
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
  }
  return fileName.replace(/[_\s]+/g, ' ').trim();
}

export interface SetOverrides {
  /** The set's name and license from the config or the command line, over the source's. */
  name?: string;
  license?: CatalogueSetConfig['license'];
}

function applyOverrides(info: IconifyInfo, overrides: SetOverrides): IconifyInfo {
  const result = { ...info };
  if (overrides.name) result.name = overrides.name;
  if (overrides.license) {
    result.license = { title: overrides.license.title ?? overrides.license.spdx, spdx: overrides.license.spdx, ...(overrides.license.url ? { url: overrides.license.url } : {}) };
  }
  return result;
}

/** A folder's SVG file; `content` is absent for a file over MAX_SVG_BYTES (refused unread) or when only the digest was wanted. */
export interface FolderFile {
  name: string;
  size: number;
  content?: Uint8Array;
}

/** Files read at once: their reads overlap in libuv's threads instead of waiting on each other. */
const READ_CONCURRENCY = 16;

/**
 * The SVG files of a folder source, in name order, each read once, and the digest of everything
 * they hold (names, sizes, bytes, metadata). `keep: false` hashes without keeping the bytes.
 */
export async function readFolder(folder: string, metadataPath: string | undefined, salt: string, keep = true): Promise<{ digest: string; files: FolderFile[] }> {
  const hash = createHash('sha256').update(`own-source ${OWN_SOURCE_VERSION}\n${salt}\n`);
  const names = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && extname(entry.name).toLowerCase() === '.svg')
    .map((entry) => entry.name)
    .sort();
  const files: FolderFile[] = [];
  for (let start = 0; start < names.length; start += READ_CONCURRENCY) {
    const read = await Promise.all(
      names.slice(start, start + READ_CONCURRENCY).map(async (name): Promise<FolderFile> => {
        const { size } = await stat(join(folder, name));
        // An oversized file is refused unread: its size alone decides, and so it is all the digest needs.
        return size <= MAX_SVG_BYTES ? { name, size, content: await readFile(join(folder, name)) } : { name, size };
      }),
    );
    for (const file of read) {
      hash.update(`${file.name}\0${file.size}\0`);
      if (file.content) hash.update(file.content);
      files.push(keep ? file : { name: file.name, size: file.size });
    }
  }
  if (metadataPath) hash.update(`metadata\0${await readFile(metadataPath, 'utf8')}`);
  return { digest: hash.digest('hex'), files };
}

/** The digest of a folder source alone (readFolder without keeping the files' bytes). */
export async function folderDigest(folder: string, metadataPath: string | undefined, salt: string): Promise<string> {
  return (await readFolder(folder, metadataPath, salt, false)).digest;
}

export interface FolderOptions {
  prefix: string;
  folder: string;
  metadata?: string;
  overrides?: SetOverrides;
  /** Worker threads for the SVG cleanup (0: in this thread). */
  workers?: number;
  /** Called as files are cleaned: files done so far, and in all. */
  onProgress?: (done: number, total: number) => void;
}

/** A folder of SVG files as an icon set: each file cleaned (svg-clean.ts) or reported. */
export async function loadFolderSet(options: FolderOptions): Promise<LoadedSet> {
  const { prefix, folder } = options;
  if (!existsSync(folder)) throw new ConfigError(`${prefix}: the folder ${folder} does not exist`);
  const metadataPath = metadataPathOf(folder, options.metadata);
  const metadata = metadataPath ? parseFolderMetadata(await readFile(metadataPath, 'utf8'), metadataPath) : {};
  const readStarted = performance.now();
  const { digest, files } = await readFolder(folder, metadataPath, JSON.stringify(options.overrides ?? {}));
  const read = performance.now() - readStarted;

  const rejected: Rejection[] = [];
  const candidates: { file: string; stem: string; name: string; size: number; content?: Uint8Array }[] = [];
  const byName = new Map<string, string>();
  for (const { name: file, size, content } of files) {
    const stem = basename(file, extname(file));
    const name = iconNameOf(stem);
    const other = byName.get(name);
    if (other !== undefined) {
      rejected.push({ file, reason: `its icon name "${name}" is already taken by ${other}` });
      continue;
    }
    byName.set(name, file);
    candidates.push({ file, stem, name, size, ...(content ? { content } : {}) });
  }
  const readable = candidates.flatMap(({ name, content }) => (content ? [{ content, idPrefix: `${prefix}-${name}` }] : []));
  const cleanStarted = performance.now();
  const cleanedReadable = (await cleanSvgFiles(readable, { workers: options.workers ?? 0, ...(options.onProgress ? { onProgress: options.onProgress } : {}) })).values();
  const cleaned = candidates.map(({ size, content }) => (content ? cleanedReadable.next().value! : tooLarge(size)));
  const clean = performance.now() - cleanStarted;

  const icons: IconifyJSON['icons'] = {};
  const categories: Record<string, string[]> = {};
  const iconExtras: Record<string, IconExtras> = {};
  let anyMulticolor = false;
  candidates.forEach(({ file, stem, name }, index) => {
    const result = cleaned[index]!;
    if (!result.ok) {
      rejected.push({ file, reason: result.reason });
      return;
    }
    const meta = metadata.icons?.[stem] ?? metadata.icons?.[name] ?? {};
    const { body, width, height, left, top, multicolor } = result.icon;
    icons[name] = { body, width, height, ...(left ? { left } : {}), ...(top ? { top } : {}), ...(meta.hidden ? { hidden: true } : {}) };
    anyMulticolor ||= multicolor;
    const category = meta.category ?? metadata.set?.category;
    if (category) categories[category] = [...(categories[category] ?? []), name];
    iconExtras[name] = {
      name: meta.name ?? displayNameOf(stem),
      multicolor,
      ...(meta.tags ? { tags: meta.tags } : {}),
      // The words of a display name the file name could not spell (`Café Crème`, `Ключ`) find it too.
      keywords: [...(meta.keywords ?? []), ...displayNameOf(stem).toLowerCase().split(' ').filter((word) => word && !name.split('-').includes(word))],
      ...(meta.style ? { style: meta.style } : {}),
    };
  });

  // An entry that matches no file (a typo, a file removed) would otherwise be dropped without a word.
  const named = new Set(files.flatMap(({ name }) => [basename(name, extname(name)), iconNameOf(basename(name, extname(name)))]));
  const warnings = Object.keys(metadata.icons ?? {})
    .filter((entry) => !named.has(entry))
    .map((entry) => `metadata entry "${entry}" (${metadataPath ? basename(metadataPath) : 'metadata'}) names no SVG file of the folder: ignored`);

  const author = metadata.set?.author;
  const info: IconifyInfo = applyOverrides(
    {
      name: metadata.set?.name ?? prefix,
      author: typeof author === 'string' ? { name: author } : (author ?? { name: 'Unknown' }),
      license: metadata.set?.license
        ? { title: metadata.set.license.title ?? metadata.set.license.spdx, spdx: metadata.set.license.spdx, ...(metadata.set.license.url ? { url: metadata.set.license.url } : {}) }
        : { title: 'Unknown' },
      ...(metadata.set?.category ? { category: metadata.set.category } : {}),
      palette: anyMulticolor,
    },
    options.overrides ?? {},
  );
  const json: IconifyJSON = { prefix, info, icons, ...(Object.keys(categories).length ? { categories } : {}) };
  return {
    source: { json, info, version: `sha256:${digest.slice(0, 12)}`, iconExtras, bodiesSanitized: true },
    digest,
    rejected,
    stages: { read, clean },
    ...(warnings.length ? { warnings } : {}),
    ...(metadata.renames ? { renames: metadata.renames } : {}),
    ...(metadata.set?.style ? { defaultStyle: metadata.set.style } : {}),
  };
}

function stringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** An IconifyJSON file as an icon set: each icon's body checked like a file's (svg-clean.ts), a bad one reported. */
export async function loadJsonFileSet(prefix: string, path: string, overrides: SetOverrides = {}): Promise<LoadedSet> {
  if (!existsSync(path)) throw new ConfigError(`${prefix}: the file ${path} does not exist`);
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || typeof (raw as { icons?: unknown }).icons !== 'object') {
    throw new ConfigError(`${path}: not an IconifyJSON icon set (no "icons" object)`);
  }
  const json = raw as IconifyJSON;
  // The configured prefix names the set, whatever the file calls it.
  json.prefix = prefix;
  const rejected: Rejection[] = [];
  const iconExtras: Record<string, IconExtras> = {};
  // What `export` wrote beside the IconifyJSON fields (export-set.ts): display names, tags, keywords, styles.
  const fileExtras = ((raw as Record<string, unknown>)[EXTRAS_KEY] ?? {}) as Record<string, Partial<Record<keyof IconExtras, unknown>>>;
  const defaults = { width: json.width ?? 16, height: json.height ?? 16, left: json.left ?? 0, top: json.top ?? 0 };
  for (const [name, icon] of Object.entries(json.icons ?? {})) {
    const checked =
      typeof icon?.body === 'string'
        ? checkIconBody(icon.body, { width: icon.width ?? defaults.width, height: icon.height ?? defaults.height, left: icon.left ?? defaults.left, top: icon.top ?? defaults.top })
        : { ok: false as const, reason: 'has no body' };
    if (!checked.ok) {
      rejected.push({ file: `${basename(path)}#${name}`, reason: checked.reason });
      delete json.icons[name];
      continue;
    }
    const exported = fileExtras[name];
    iconExtras[name] = {
      multicolor: checked.multicolor,
      ...(typeof exported?.name === 'string' ? { name: exported.name } : {}),
      ...(typeof exported?.style === 'string' ? { style: exported.style } : {}),
      ...(typeof exported?.category === 'string' ? { category: exported.category } : {}),
      ...(stringArray(exported?.tags) ? { tags: exported.tags } : {}),
      ...(stringArray(exported?.keywords) ? { keywords: exported.keywords } : {}),
    };
  }
  const info = applyOverrides(json.info ?? { name: prefix, author: { name: 'Unknown' }, license: { title: 'Unknown' } }, overrides);
  json.info = info;
  const digest = createHash('sha256')
    .update(`own-source ${OWN_SOURCE_VERSION}\n${JSON.stringify(overrides)}\n`)
    .update(text)
    .digest('hex');
  return { source: { json, info, version: `sha256:${digest.slice(0, 12)}`, iconExtras }, digest, rejected };
}
