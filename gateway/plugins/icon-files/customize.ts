// An icon's file as asked for, customized as Iconify's API does it (the SVG is built by
// @iconify/utils): `color` replaces currentColor, `size` (or `width`/`height`) sets the displayed
// size, `rotate` turns by quarter turns, `flip` mirrors. Each parameter is checked strictly (a 400 names it and its rule), so
// nothing a client writes reaches the markup but values of a known form.
import { iconToHTML, iconToSVG } from '@iconify/utils';
import cssColors from 'color-name';

export interface Customization {
  color?: string;
  width?: number;
  height?: number;
  /** Quarter turns clockwise: 0 to 3. */
  rotate: number;
  hFlip: boolean;
  vFlip: boolean;
}

export class CustomizationError extends Error {}

/** A query parameter's single value; undefined when absent or blank (blank counts as absent). */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new CustomizationError(`${name} is given ${values.length} times; give it once`);
  const value = values[0]?.trim();
  return value ? value : undefined;
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export function parseColor(value: string): string {
  const lower = value.toLowerCase();
  if (Object.hasOwn(cssColors, lower)) return lower;
  const hex = HEX.exec(value);
  if (hex) return `#${hex[1]!.toLowerCase()}`;
  throw new CustomizationError(`color must be a hex colour such as #1e90ff or a CSS colour name such as tomato (got "${value}")`);
}

function wholeNumber(name: string, value: string, min: number, max: number): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CustomizationError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

export const QUARTER_TURNS: Record<string, number> = { '0': 0, '1': 1, '2': 2, '3': 3, '90': 1, '180': 2, '270': 3, '0deg': 0, '90deg': 1, '180deg': 2, '270deg': 3 };

function parseFlip(value: string): { hFlip: boolean; vFlip: boolean } {
  const parts = value.toLowerCase().split(/\s*,\s*/);
  if (!parts.every((part) => part === 'horizontal' || part === 'vertical')) {
    throw new CustomizationError(`flip must be horizontal, vertical or horizontal,vertical (got "${value}")`);
  }
  return { hFlip: parts.includes('horizontal'), vFlip: parts.includes('vertical') };
}

/** The customization a request asks for; `sizes` bounds size, width and height (the PNG route takes size only). */
export function parseCustomization(query: URLSearchParams, sizes: { min: number; max: number }, { sizeOnly = false } = {}): Customization {
  const color = single(query, 'color');
  const rotate = single(query, 'rotate');
  const flip = single(query, 'flip');
  const customization: Customization = { rotate: 0, hFlip: false, vFlip: false, ...(flip && parseFlip(flip)) };
  if (color) customization.color = parseColor(color);
  if (rotate) {
    const turns = QUARTER_TURNS[rotate.toLowerCase()];
    if (turns === undefined) throw new CustomizationError(`rotate must be 90, 180 or 270 (or 1, 2, 3 quarter turns) (got "${rotate}")`);
    customization.rotate = turns;
  }
  if (sizeOnly) return customization;
  const size = single(query, 'size');
  const width = single(query, 'width');
  const height = single(query, 'height');
  if (size && (width || height)) throw new CustomizationError('give size, or width and/or height, not both');
  if (size) customization.width = customization.height = wholeNumber('size', size, sizes.min, sizes.max);
  if (width) customization.width = wholeNumber('width', width, sizes.min, sizes.max);
  if (height) customization.height = wholeNumber('height', height, sizes.min, sizes.max);
  if (size) customization.width = undefined; // size sets the height; the width follows the icon's proportions
  return customization;
}

/**
 * The SVG document of a body of `width` x `height` (its viewBox), customized by @iconify/utils
 * (iconToSVG, iconToHTML): rotation, flips and size follow Iconify's rules as its own API applies
 * them, so a file here and the same icon drawn by Iconify's components agree.
 */
export function customizedSvg(body: string, box: { width: number; height: number }, c: Customization): string {
  const svg = c.rotate === 0 && !c.hFlip && !c.vFlip && c.width === undefined && c.height === undefined ? plainSvg(body, box) : builtSvg(body, box, c);
  return c.color ? svg.replace(/currentColor/gi, c.color) : svg;
}

/**
 * A file as it is, without a turn, flip or size: the document iconToSVG and iconToHTML make of it
 * (test/unit/icon-files-customize.test.ts holds them to it), written directly because most file
 * requests are these and the library took 7 to 8 microseconds for one against under one here
 * (docs/iconify-protocol.md, "Hand-written fast path").
 */
function plainSvg(body: string, { width, height }: { width: number; height: number }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg"${body.includes('xlink:') ? ' xmlns:xlink="http://www.w3.org/1999/xlink"' : ''} width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

function builtSvg(body: string, box: { width: number; height: number }, c: Customization): string {
  const built = iconToSVG(
    { body, width: box.width, height: box.height },
    {
      rotate: c.rotate,
      hFlip: c.hFlip,
      vFlip: c.vFlip,
      // Neither given: the icon's own size (its viewBox's), as the file route always drew it.
      width: c.width ?? (c.height === undefined ? 'auto' : null),
      height: c.height ?? (c.width === undefined ? 'auto' : null),
    },
  );
  return iconToHTML(built.body, built.attributes);
}
