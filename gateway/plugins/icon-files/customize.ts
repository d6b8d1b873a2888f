// An icon's file as asked for, customized as Iconify's API does it: `color` replaces
// currentColor, `size` (or `width`/`height`) sets the displayed size, `rotate` turns by quarter
// turns, `flip` mirrors. Each parameter is checked strictly (a 400 names it and its rule), so
// nothing a client writes reaches the markup but values of a known form.
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

const QUARTER_TURNS: Record<string, number> = { '0': 0, '1': 1, '2': 2, '3': 3, '90': 1, '180': 2, '270': 3, '0deg': 0, '90deg': 1, '180deg': 2, '270deg': 3 };

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

const round = (value: number) => String(Math.round(value * 1000) / 1000);

/**
 * The SVG document of a body of `width` x `height` (its viewBox), customized. Flips and turns as
 * Iconify applies them: both flips are half a turn; an odd number of quarter turns swaps the box.
 */
export function customizedSvg(body: string, box: { width: number; height: number }, c: Customization): string {
  let { width, height } = box;
  let rotate = c.rotate;
  const transforms: string[] = [];
  if (c.hFlip && c.vFlip) rotate += 2;
  else if (c.hFlip) transforms.push(`translate(${width} 0)`, 'scale(-1 1)');
  else if (c.vFlip) transforms.push(`translate(0 ${height})`, 'scale(1 -1)');
  rotate %= 4;
  if (rotate === 1) transforms.unshift(`rotate(90 ${round(height / 2)} ${round(height / 2)})`);
  else if (rotate === 2) transforms.unshift(`rotate(180 ${round(width / 2)} ${round(height / 2)})`);
  else if (rotate === 3) transforms.unshift(`rotate(-90 ${round(width / 2)} ${round(width / 2)})`);
  if (rotate % 2 === 1) [width, height] = [height, width];
  let inner = transforms.length ? `<g transform="${transforms.join(' ')}">${body}</g>` : body;
  if (c.color) inner = inner.replace(/currentColor/gi, c.color);
  const shownHeight = c.height ?? (c.width !== undefined ? (c.width * height) / width : height);
  const shownWidth = c.width ?? (c.height !== undefined ? (c.height * width) / height : width);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${round(shownWidth)}" height="${round(shownHeight)}" viewBox="0 0 ${width} ${height}">${inner}</svg>`;
}
