// `npm run lint` keeps the documentation true to the code it describes:
// - every relative link and #anchor in README.md and docs/**/*.md resolves (anchors as GitHub
//   makes them from headings);
// - every option of the gateway's own schema and of every plugin's zod options schema is named
//   in docs/configuration.md, in the section whose heading names the plugin (`rate-limit`);
//   the schemas are walked, not listed here, so a new option fails until it is documented;
// - every environment variable the serving code reads is named in docs/configuration.md.
//   npx tsx scripts/check-docs.ts
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { PROJECT_ROOT } from '../lib/project-root.ts';

/**
 * Pages another change is still writing: a link to one of them that does not exist yet is
 * reported, not failed. Empty this list once they have landed.
 */
export const PAGES_BEING_WRITTEN: readonly string[] = [];

/** The section of docs/configuration.md that documents the gateway's own options. */
export const GATEWAY_SECTION = '@icon-catalogue/gateway';

export interface DocProblem {
  file: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Markdown: headings, anchors, links

/** The Markdown files checked: README.md and everything under docs/. */
export function markdownFiles(root = PROJECT_ROOT): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/** The lines of a Markdown text outside fenced code blocks (the others as empty lines, so numbers hold). */
export function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      const marker = opening[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

export interface Heading {
  level: number;
  text: string;
  line: number;
}

export function headingsOf(text: string): Heading[] {
  const headings: Heading[] = [];
  proseLines(text).forEach((line, index) => {
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (match) headings.push({ level: match[1]!.length, text: match[2]!, line: index });
  });
  return headings;
}

/** GitHub's anchor of a heading: its text without markup, lower-cased, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a page: its headings' slugs, repeated ones numbered as GitHub numbers them. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: heading } of headingsOf(text)) {
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** The link targets of a page's prose (inline code spans left out), with their line numbers. */
export function linksOf(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 });
    for (const match of line.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)) links.push({ target: match[1]!, line: index + 1 });
  });
  return links;
}

export function checkLinks(root = PROJECT_ROOT, beingWritten: readonly string[] = PAGES_BEING_WRITTEN): { problems: DocProblem[]; pending: string[] } {
  const problems: DocProblem[] = [];
  const pending: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    const known = anchorCache.get(file);
    if (known) return known;
    const found = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, found);
    return found;
  };
  for (const file of markdownFiles(root)) {
    const name = relative(root, file);
    for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const targetFile = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const targetName = relative(root, targetFile);
      if (!existsSync(targetFile)) {
        if (beingWritten.includes(targetName)) pending.push(`${name}:${line} links to ${targetName}, still being written`);
        else problems.push({ file: `${name}:${line}`, message: `links to ${target}: no such file` });
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(targetFile).isDirectory() || !targetFile.endsWith('.md')) {
        problems.push({ file: `${name}:${line}`, message: `links to ${target}: an anchor in a file that is not Markdown` });
      } else if (!anchors(targetFile).has(anchor)) {
        problems.push({ file: `${name}:${line}`, message: `links to ${target}: ${targetName} has no heading with the anchor #${anchor}` });
      }
    }
  }
  return { problems, pending };
}

// ---------------------------------------------------------------------------------------------
// Options: walked from the zod schemas

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The schema under defaults, optionals, transforms and the like. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(schema);
    if (['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type) && def.innerType) schema = def.innerType;
    else if (def.type === 'pipe' && def.in) schema = defOf(def.in).type === 'transform' && def.out ? def.out : def.in;
    else if (def.type === 'lazy' && def.getter) schema = def.getter();
    else return schema;
  }
}

/** The object shapes a value may take (an object, or a union of objects: their fields together). */
function objectShapes(schema: z.ZodType): Record<string, z.ZodType>[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object' && def.shape) return [def.shape];
  if (def.type === 'union' && def.options) return def.options.flatMap(objectShapes);
  return [];
}

/**
 * Every option of a schema as it is written in docs/configuration.md: `a.b` for a field of an
 * object, `a[].b` for a field of a list's items, `a.<name>.b` for a field of a map's values
 * (rest-routes' `routes[].params.<name>.type`). Fields of a union of objects are listed together.
 */
export function optionPaths(schema: z.ZodType, prefix = ''): string[] {
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const shape of objectShapes(schema)) {
    for (const [key, field] of Object.entries(shape)) {
      const path = `${prefix}${key}`;
      if (seen.has(path)) continue;
      seen.add(path);
      paths.push(path);
      paths.push(...childPaths(field, path));
    }
  }
  return paths;
}

function childPaths(field: z.ZodType, path: string): string[] {
  const inner = unwrap(field);
  const def = defOf(inner);
  if (def.type === 'array' && def.element) return optionPaths(def.element, `${path}[].`);
  if (def.type === 'record' && def.valueType) return optionPaths(def.valueType, `${path}.<name>.`);
  return optionPaths(inner, `${path}.`);
}

/** `rate-limit` -> `rateLimitOptions`: the export of gateway/plugins/<name>/options.ts that is the plugin's schema. */
export function schemaExportName(plugin: string): string {
  return `${plugin.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Options`;
}

export interface DocumentedSchema {
  /** The name the section of docs/configuration.md is headed by. */
  section: string;
  schema: z.ZodType;
}

/**
 * The schemas to document: the gateway's own (gateway/options.ts, `gatewayOptions`), and every
 * plugin's, found by convention: each name .meshrc.yaml can list (gateway/plugins/index.ts), and
 * each folder of gateway/plugins/ with an options.ts, exports its schema from
 * gateway/plugins/<name>/options.ts as `<camelCaseName>Options`.
 */
export async function documentedSchemas(root = PROJECT_ROOT): Promise<{ schemas: DocumentedSchema[]; problems: DocProblem[] }> {
  const problems: DocProblem[] = [];
  const importFrom = (path: string) => import(pathToFileURL(join(root, path)).href) as Promise<Record<string, unknown>>;
  const { gatewayOptions } = (await importFrom('gateway/options.ts')) as { gatewayOptions: z.ZodType };
  const schemas: DocumentedSchema[] = [{ section: GATEWAY_SECTION, schema: gatewayOptions }];
  const { PLUGIN_FACTORIES } = (await importFrom('gateway/plugins/index.ts')) as { PLUGIN_FACTORIES: Record<string, unknown> };
  const pluginsDir = join(root, 'gateway/plugins');
  const folders = readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(pluginsDir, entry.name, 'options.ts')))
    .map((entry) => entry.name);
  for (const plugin of [...new Set([...Object.keys(PLUGIN_FACTORIES), ...folders])].sort()) {
    const file = `gateway/plugins/${plugin}/options.ts`;
    const exportName = schemaExportName(plugin);
    if (!existsSync(join(root, file))) {
      problems.push({ file, message: `plugin "${plugin}" has no options file (the check reads its schema from ${file}, export ${exportName})` });
      continue;
    }
    const schema = (await importFrom(file))[exportName] as z.ZodType | undefined;
    if (!schema || typeof schema !== 'object' || !('_zod' in schema)) {
      problems.push({ file, message: `exports no zod schema named ${exportName} (the check finds plugin "${plugin}"'s options by that name)` });
      continue;
    }
    schemas.push({ section: plugin, schema });
  }
  return { schemas, problems };
}

/** The text of the section whose heading names `name` in backticks, down to the next heading of its level or above. */
export function sectionText(markdown: string, name: string): string | undefined {
  const lines = markdown.split('\n');
  const headings = headingsOf(markdown);
  const index = headings.findIndex((h) => h.text.includes(`\`${name}\``));
  if (index < 0) return undefined;
  const start = headings[index]!;
  const end = headings.slice(index + 1).find((h) => h.level <= start.level);
  return lines.slice(start.line, end ? end.line : lines.length).join('\n');
}

/** What `markdown` (docs/configuration.md) leaves undocumented of `schemas`. */
export function optionProblems(markdown: string, schemas: readonly DocumentedSchema[], file = 'docs/configuration.md'): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const { section, schema } of schemas) {
    const text = sectionText(markdown, section);
    if (text === undefined) {
      problems.push({ file, message: `has no section headed by \`${section}\` (its options are documented there)` });
      continue;
    }
    for (const option of optionPaths(schema)) {
      if (!text.includes(`\`${option}\``)) problems.push({ file, message: `section \`${section}\` does not document the option \`${option}\`` });
    }
  }
  return problems;
}

export async function checkOptions(root = PROJECT_ROOT): Promise<DocProblem[]> {
  const file = 'docs/configuration.md';
  const path = join(root, file);
  if (!existsSync(path)) return [{ file, message: 'is missing' }];
  const { schemas, problems } = await documentedSchemas(root);
  return [...problems, ...optionProblems(readFileSync(path, 'utf8'), schemas, file)];
}

// ---------------------------------------------------------------------------------------------
// Environment variables: read by the code that serves, imports and migrates

const ENV_SOURCES = ['gateway', 'prisma', 'resolvers', 'lib', 'cli', 'scripts', 'bin'];

export function environmentVariables(root = PROJECT_ROOT): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'generated') walk(path);
      } else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && path !== join(root, 'scripts/check-docs.ts')) {
        const text = readFileSync(path, 'utf8');
        const patterns = [/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g, /^\s*([A-Z][A-Z0-9_]+): envWholeNumber/gm];
        for (const pattern of patterns) for (const match of text.matchAll(pattern)) if (!found.has(match[1]!)) found.set(match[1]!, relative(root, path));
      }
    }
  };
  for (const dir of ENV_SOURCES) walk(join(root, dir));
  return found;
}

export function checkEnvironment(root = PROJECT_ROOT): DocProblem[] {
  const file = 'docs/configuration.md';
  const path = join(root, file);
  if (!existsSync(path)) return [];
  const markdown = readFileSync(path, 'utf8');
  return [...environmentVariables(root)]
    .filter(([name]) => !markdown.includes(`\`${name}\``))
    .map(([name, source]) => ({ file, message: `does not document the environment variable \`${name}\` (read in ${source})` }));
}

// ---------------------------------------------------------------------------------------------

export async function checkDocs(root = PROJECT_ROOT): Promise<{ problems: DocProblem[]; pending: string[] }> {
  const links = checkLinks(root);
  const problems = [...links.problems, ...(await checkOptions(root)), ...checkEnvironment(root)];
  return { problems, pending: links.pending };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { problems, pending } = await checkDocs();
  for (const note of pending) console.log(`note: ${note}`);
  for (const { file, message } of problems) console.error(`${file}: ${message}`);
  if (problems.length > 0) {
    console.error(`check-docs: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('check-docs: links, anchors, options and environment variables documented');
  process.exit(0);
}
