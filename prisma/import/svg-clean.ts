// One SVG file of a folder source -> an Iconify icon (body and box), or the reason it is refused.
// Refused outright, before any cleanup could hide it: files over the size limit, text that is
// not UTF-8, DOCTYPE and entity declarations (entity expansion bombs), anything that is not an
// <svg> document, scripts, event handlers, javascript: URLs, references outside the icon,
// foreignObject and embedded images. The rest goes through @iconify/tools as Iconify's own sets
// do: cleanupSVG (unknown elements refused), parseColors (a one-colour icon is recoloured to
// currentColor so `color=` works; a multicolour icon keeps its palette), SVGO with ids renamed
// under the icon's own prefix (icons inlined side by side in one page never share an id). The
// body then goes through the catalogue's sanitizer like every other set's.
import { cleanupSVG, isEmptyColor, parseColors, runSVGO, SVG } from '@iconify/tools';
import { sanitizeSvgBody } from '../../lib/svg/sanitize.ts';

type ParsedXMLTagElement = SVG['$svg'];
type ParsedXMLNode = ParsedXMLTagElement['children'][number];

/** The largest SVG file a folder source may hold. */
export const MAX_SVG_BYTES = 5 * 1024 * 1024;

export interface CleanIcon {
  body: string;
  width: number;
  height: number;
  left: number;
  top: number;
  /** More than one colour: the palette is the icon's own and `color=` does not apply. */
  multicolor: boolean;
}

export type CleanResult = { ok: true; icon: CleanIcon } | { ok: false; reason: string };

const refuse = (reason: string): CleanResult => ({ ok: false, reason });

const FORBIDDEN_ELEMENTS: Record<string, string> = {
  script: 'contains a <script> element',
  foreignobject: 'contains a <foreignObject> element (HTML inside SVG)',
  image: 'embeds an image (<image>): raster or external pictures are not icons',
  feimage: 'embeds an image (<feImage>)',
  iframe: 'contains an <iframe> element',
  embed: 'contains an <embed> element',
  object: 'contains an <object> element',
};

const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href', 'src']);
const CSS_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/gi;

/** What in an attribute value or a style sheet points outside the icon, if anything. */
function outsideReference(value: string): string | null {
  if (/javascript:|vbscript:/i.test(value)) return 'has a javascript: URL';
  if (/@import/i.test(value)) return 'imports an external style sheet (@import)';
  for (const match of value.matchAll(CSS_URL)) {
    if (!match[2]!.trim().startsWith('#')) return `refers outside the icon (url(${match[2]!.slice(0, 60)}))`;
  }
  return null;
}

/** The first thing in the tree that is refused, or null. */
function findForbidden(node: ParsedXMLTagElement): string | null {
  const reason = FORBIDDEN_ELEMENTS[node.tag.toLowerCase()];
  if (reason) return reason;
  for (const [name, raw] of Object.entries(node.attribs)) {
    const value = String(raw);
    if (/^on/i.test(name)) return `has an event handler attribute (${name} on <${node.tag}>)`;
    if (REFERENCE_ATTRIBUTES.has(name.toLowerCase())) {
      if (/^\s*(javascript|vbscript):/i.test(value)) return 'has a javascript: URL';
      if (!value.trim().startsWith('#')) return `refers outside the icon (${name}="${value.slice(0, 60)}")`;
    }
    const outside = outsideReference(value);
    if (outside) return outside;
  }
  for (const child of node.children) {
    const found = child.type === 'tag' ? findForbidden(child) : node.tag === 'style' ? outsideReference(child.content) : null;
    if (found) return found;
  }
  return null;
}

/** Whether anything is drawn: a shape, text or a use of a definition outside <defs>-like containers. */
function drawsSomething(nodes: readonly ParsedXMLNode[]): boolean {
  const containers = new Set(['defs', 'clipPath', 'mask', 'pattern', 'linearGradient', 'radialGradient', 'filter', 'symbol', 'marker', 'title', 'desc', 'metadata', 'style']);
  for (const node of nodes) {
    if (node.type !== 'tag' || containers.has(node.tag)) continue;
    if (['path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect', 'text', 'use'].includes(node.tag)) return true;
    if (drawsSomething(node.children)) return true;
  }
  return false;
}

function colourKey(color: unknown): string {
  return typeof color === 'string' ? color.toLowerCase() : JSON.stringify(color);
}

/**
 * Cleans one SVG document. `idPrefix` starts every id the icon keeps (its set prefix and name),
 * so that ids stay unique across icons.
 */
export function cleanSvg(content: Uint8Array | string, idPrefix: string): CleanResult {
  if (content.length > MAX_SVG_BYTES) return tooLarge(content.length);
  let text: string;
  try {
    text = typeof content === 'string' ? content : new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return refuse('not UTF-8 text');
  }
  // Before parsing: a parser that expands entities is what a billion-laughs file attacks.
  if (/<!DOCTYPE/i.test(text)) return refuse('has a DOCTYPE (refused: entity declarations can expand without bound)');
  if (/<!ENTITY/i.test(text)) return refuse('declares an entity (refused: entities can expand without bound)');

  let svg: SVG;
  try {
    svg = new SVG(text);
  } catch {
    return refuse('not an SVG document (not well-formed XML with an <svg> root)');
  }
  const forbidden = findForbidden(svg.$svg);
  if (forbidden) return refuse(forbidden);
  if (!(svg.viewBox.width > 0 && svg.viewBox.height > 0)) return refuse('has no usable viewBox or width and height');

  try {
    cleanupSVG(svg);
  } catch (error) {
    const message = (error as Error).message;
    const element = /Unexpected element: <([^>]+)>/.exec(message);
    return refuse(element ? `contains an element icons may not hold (<${element[1]}>)` : `could not be cleaned (${message})`);
  }
  if (!drawsSomething(svg.$svg.children)) return refuse('empty drawing (no shapes)');

  // Colours: collected first, then a one-colour icon (unset fills count as black) becomes currentColor.
  let multicolor: boolean;
  try {
    const found = parseColors(svg, {});
    const colours = new Set(found.colors.filter((color) => typeof color === 'string' || !isEmptyColor(color)).map(colourKey));
    if (found.hasUnsetColor) colours.add(colourKey({ type: 'rgb', r: 0, g: 0, b: 0, alpha: 1 }));
    const onlyCurrent = [...colours].every((key) => key === 'currentcolor' || key === '{"type":"current"}');
    multicolor = colours.size > 1 && !onlyCurrent;
    if (!multicolor) {
      parseColors(svg, {
        defaultColor: 'currentColor',
        callback: (_attr, colorString, parsed) => (parsed && isEmptyColor(parsed) ? colorString : 'currentColor'),
      });
    }
    // One pass: SVGO's multipass (the library's default) costs about 3.7 times one pass (see
    // bench/results-import.md) and gains little on icons, which large folders cannot afford.
    runSVGO(svg, { cleanupIDs: `${idPrefix.replace(/[^A-Za-z0-9_-]+/g, '-')}-`, multipass: false });
  } catch (error) {
    return refuse(`could not be cleaned (${(error as Error).message})`);
  }
  const body = sanitizeSvgBody(svg.getBody());
  if (body.trim() === '') return refuse('empty drawing (nothing left after cleanup)');
  const { left, top, width, height } = svg.viewBox;
  return { ok: true, icon: { body, width, height, left: left ?? 0, top: top ?? 0, multicolor } };
}

/** One body of an IconifyJSON file, refused for what a file would be refused for; its palette otherwise. */
export function checkIconBody(
  body: string,
  box: { left: number; top: number; width: number; height: number },
): { ok: true; multicolor: boolean } | { ok: false; reason: string } {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) return refuse('declares a DOCTYPE or entity') as { ok: false; reason: string };
  let svg: SVG;
  try {
    svg = new SVG(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.left} ${box.top} ${box.width} ${box.height}">${body}</svg>`);
  } catch {
    return { ok: false, reason: 'its body is not well-formed SVG markup' };
  }
  const forbidden = findForbidden(svg.$svg);
  if (forbidden) return { ok: false, reason: forbidden };
  if (!drawsSomething(svg.$svg.children)) return { ok: false, reason: 'empty drawing (no shapes)' };
  try {
    const found = parseColors(svg, {});
    const colours = new Set(found.colors.filter((color) => typeof color === 'string' || !isEmptyColor(color)).map(colourKey));
    if (found.hasUnsetColor) colours.add('unset');
    colours.delete('currentcolor');
    colours.delete('{"type":"current"}');
    return { ok: true, multicolor: colours.size > 1 || (colours.size === 1 && !colours.has('unset')) };
  } catch {
    // A colour @iconify/tools cannot parse does not make the markup unsafe (that was checked
    // above); the icon is kept and treated as one-colour, which only decides the `palette` flag.
    return { ok: true, multicolor: false };
  }
}

/** Folders with fewer files are cleaned in the importing thread. */
export const WORKER_THRESHOLD = 200;

/** One file's bytes (read once, by whoever hashed them) and the prefix of the ids it keeps. */
export interface SvgCleanJob {
  content: Uint8Array;
  idPrefix: string;
}

export interface CleanOptions {
  /** Worker threads (0: in this thread). */
  workers?: number;
  /** Called as files are cleaned: files done so far, and in all. */
  onProgress?: (done: number, total: number) => void;
}

/** Cleans the files, the results in the jobs' order. */
export async function cleanSvgFiles(jobs: readonly SvgCleanJob[], options: CleanOptions = {}): Promise<CleanResult[]> {
  const { workers = 0, onProgress } = options;
  // A worker costs its start (loading the cleanup libraries): worth it for a large folder only.
  if (workers > 0 && jobs.length >= WORKER_THRESHOLD) {
    const { cleanInWorkers, workersAvailable } = await import('./svg-clean-workers.ts');
    if (workersAvailable()) return cleanInWorkers<SvgCleanJob, CleanResult>(jobs, { workers, ...(onProgress ? { onProgress } : {}) });
  }
  const results: CleanResult[] = [];
  for (const job of jobs) {
    results.push(cleanSvg(job.content, job.idPrefix));
    if (onProgress && (results.length % 100 === 0 || results.length === jobs.length)) onProgress(results.length, jobs.length);
  }
  return results;
}

/** The refusal of a file over MAX_SVG_BYTES, decided by its size alone (it is not read). */
export function tooLarge(size: number): CleanResult {
  return refuse(`larger than ${MAX_SVG_BYTES / 1024 / 1024} MB (${(size / 1024 / 1024).toFixed(1)} MB)`);
}
