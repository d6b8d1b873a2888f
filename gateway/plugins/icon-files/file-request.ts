// What a file request asks for: which icon (from the path), its customization and PNG size
// (from the query), and the operation's variables.
import type { Exchange } from '../../pipeline/exchange.ts';
import { CustomizationError, parseCustomization, type Customization } from './customize.ts';
import { fileOf } from './file-path.ts';
import type { IconFilesOptions } from './options.ts';

/** What the operation gives of an icon's file. */
export interface IconFileData {
  body: string;
  width: number;
  height: number;
  premium: boolean;
  /** The version of the file's content (`v=` of the address svg_url gives). */
  version: string;
}

export interface FileRequest {
  format: 'svg' | 'png';
  prefix: string;
  name: string;
}

/** The file a path names, SVG or PNG; undefined for any other path. */
export function fileRequestOf(path: string, options: IconFilesOptions): FileRequest | undefined {
  const svg = fileOf(path, options.svgPath, '.svg');
  if (svg) return { format: 'svg', ...svg };
  const png = fileOf(path, options.pngPath, '.png');
  return png && { format: 'png', ...png };
}

/** A raster's size from `size=`: `fallback` when absent; a CustomizationError when out of [min, max] or given twice. */
export function rasterSize(query: URLSearchParams, { fallback, min, max }: { fallback: number; min: number; max: number }): number {
  const given = query.getAll('size');
  if (given.length > 1) throw new CustomizationError(`size is given ${given.length} times; give it once`);
  const value = given[0]?.trim();
  if (!value) return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw new CustomizationError(`size must be a whole number from ${min} to ${max} (got "${value}")`);
  return Number(value);
}

/** The file's customization (an SVG's in full, a PNG's size only) and PNG size (0 for an SVG); throws CustomizationError. */
export function customizationOf(file: FileRequest, query: URLSearchParams, options: IconFilesOptions): { customization: Customization; size: number } {
  if (file.format === 'svg') return { customization: parseCustomization(query, options.svgSize), size: 0 };
  const { default: fallback, min, max } = options.pngSize;
  return { customization: parseCustomization(query, options.svgSize, { sizeOnly: true }), size: rasterSize(query, { fallback, min, max }) };
}

/** The file operation's variables: the icon, and a premium file's signed address. */
export function fileVariables(exchange: Exchange, file: FileRequest): Record<string, unknown> {
  const expires = exchange.query.get('expires');
  return {
    prefix: file.prefix,
    name: file.name,
    // A malformed expiry is kept as a number that no signature matches (403, not 400: it is not the client's to compose).
    expires: expires === null ? null : /^\d{1,10}$/.test(expires) ? Math.min(Number(expires), 2 ** 31 - 1) : 0,
    signature: exchange.query.get('signature'),
  };
}
