// The query parameters of Iconify's protocol, read as Iconify's API reads them (the same names,
// aliases and defaults), but strictly: a value Iconify would quietly drop or pass into the markup
// as it is gives a 400 here that names the parameter, so nothing a client writes reaches an SVG
// or a stylesheet but values of a known form.
import { rotateFromString, stringToColor } from '@iconify/utils';
import { parseColor, CustomizationError } from '../icon-files/customize.ts';
import type { CssOptions, SvgCustomizations } from './formats.ts';

export { CustomizationError as ProtocolError };

/** A parameter's single value; undefined when absent or blank. */
export function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new CustomizationError(`${name} is given ${values.length} times; give it once`);
  const value = values[0]?.trim();
  return value ? value : undefined;
}

/** The first of several names a parameter goes by (Iconify's aliases such as `square`, `force-square`). */
function firstOf(query: URLSearchParams, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = single(query, name);
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/** Iconify's booleans: 1, true, yes and 0, false, no. */
export function flag(query: URLSearchParams, names: string | readonly string[]): boolean | undefined {
  const given = firstOf(query, typeof names === 'string' ? [names] : names);
  if (!given) return undefined;
  const value = given.value.toLowerCase();
  if (value === '1' || value === 'true' || value === 'yes') return true;
  if (value === '0' || value === 'false' || value === 'no') return false;
  throw new CustomizationError(`${given.name} must be 1, true, yes, 0, false or no (got "${given.value}")`);
}

/** A colour a client may put in markup: a CSS colour name, hex, or rgb()/hsl() of numbers. */
function color(name: string, value: string): string {
  if (/^(rgb|hsl)a?\(\s*[\d.%]+(\s*[, ]\s*[\d.%]+){2,3}\s*\)$/i.test(value) || /^(rgb|hsl)a?\(\s*[\d.%]+\s+[\d.%]+\s+[\d.%]+\s*\/\s*[\d.%]+\s*\)$/i.test(value)) {
    return value.replace(/\s+/g, ' ');
  }
  try {
    return parseColor(value);
  } catch {
    throw new CustomizationError(`${name} must be a hex colour such as #1e90ff, a CSS colour name such as tomato, or rgb()/hsl() (got "${value}")`);
  }
}

/** A displayed size: auto (the viewBox's), unset/none (no attribute), pixels within `bounds`, or a length in em, rem, ex, % or px. */
function size(name: string, value: string, bounds: { min: number; max: number }): string {
  const lower = value.toLowerCase();
  if (lower === 'auto' || lower === 'unset' || lower === 'none') return lower;
  const length = /^(\d{1,5}(?:\.\d{1,4})?)(px|em|rem|ex|%)?$/.exec(lower);
  if (length) {
    const number = Number(length[1]);
    const unit = length[2];
    if ((unit === undefined || unit === 'px') && (number < bounds.min || number > bounds.max)) {
      throw new CustomizationError(`${name} in pixels must be from ${bounds.min} to ${bounds.max} (got "${value}")`);
    }
    if (number > 0) return unit === undefined || unit === 'px' ? String(number) : `${number}${unit}`;
  }
  throw new CustomizationError(`${name} must be auto, unset, a number of pixels or a length such as 1.5em (got "${value}")`);
}

/** An SVG file's customizations (Iconify's: color, width, height, rotate, flip, box). */
export function svgCustomizations(query: URLSearchParams, bounds: { min: number; max: number }): SvgCustomizations {
  const customizations: SvgCustomizations = { rotate: 0, hFlip: false, vFlip: false, box: flag(query, 'box') ?? false };
  const width = single(query, 'width');
  const height = single(query, 'height');
  if (width) customizations.width = size('width', width, bounds);
  if (height) customizations.height = size('height', height, bounds);
  const rotate = single(query, 'rotate');
  if (rotate) {
    // As Iconify reads it: a plain number is quarter turns; degrees and percentages must be whole quarter turns.
    const given = /^(\d{1,3})(deg|%)?$/.exec(rotate);
    const whole = given && (given[2] === 'deg' ? Number(given[1]) % 90 === 0 : given[2] === '%' ? Number(given[1]) % 25 === 0 : true);
    const turns = whole ? rotateFromString(rotate, -1) : -1;
    if (turns < 0) throw new CustomizationError(`rotate must be quarter turns (1, 2, 3), degrees (90deg, 180deg, 270deg) or 25%, 50%, 75% (got "${rotate}")`);
    customizations.rotate = turns;
  }
  const flip = single(query, 'flip');
  if (flip) {
    const words = flip.toLowerCase().split(/[\s,]+/).filter(Boolean);
    if (!words.every((word) => word === 'horizontal' || word === 'vertical')) {
      throw new CustomizationError(`flip must be horizontal, vertical or horizontal,vertical (got "${flip}")`);
    }
    customizations.hFlip = words.includes('horizontal');
    customizations.vFlip = words.includes('vertical');
  }
  const given = single(query, 'color');
  if (given) customizations.color = color('color', given);
  return customizations;
}

/** A selector template of Iconify's CSS options: {prefix} and {name} are its only braces, and nothing ends the stylesheet's rule early. */
function selector(name: string, value: string): string {
  const rest = value.replaceAll('{name}', '').replaceAll('{prefix}', '');
  if (/[{};<>\\"'@]/.test(rest) || value.length > 200) throw new CustomizationError(`${name} must be a CSS selector; {prefix} and {name} are its only placeholders (got "${value}")`);
  return value;
}

/** The stylesheet's options (Iconify's /{prefix}.css: format, color, mode, square, pseudo, the selectors, var). */
export function cssOptions(query: URLSearchParams): CssOptions {
  const options: CssOptions = {};
  const format = single(query, 'format');
  if (format) {
    if (format !== 'compact' && format !== 'compressed' && format !== 'expanded') throw new CustomizationError(`format must be expanded, compact or compressed (got "${format}")`);
    options.format = format;
  }
  const given = single(query, 'color');
  if (given) {
    const value = color('color', given);
    if (!stringToColor(value)) throw new CustomizationError(`color must be a colour (got "${given}")`);
    options.color = value;
  }
  const mode = single(query, 'mode');
  if (mode) {
    if (mode !== 'mask' && mode !== 'background' && mode !== 'bg') throw new CustomizationError(`mode must be mask or background (got "${mode}")`);
    options.mode = mode === 'mask' ? 'mask' : 'background';
  }
  const square = flag(query, ['square', 'forceSquare', 'force-square']);
  if (square !== undefined) options.forceSquare = square;
  const pseudo = flag(query, ['pseudo', 'pseudoSelector', 'pseudo-selector']);
  if (pseudo !== undefined) options.pseudoSelector = pseudo;
  for (const [option, names] of [
    ['commonSelector', ['commonSelector', 'common']],
    ['iconSelector', ['iconSelector', 'selector']],
    ['overrideSelector', ['overrideSelector', 'override']],
  ] as const) {
    const value = firstOf(query, names);
    if (value) options[option] = selector(value.name, value.value);
  }
  const variable = firstOf(query, ['varName', 'var']);
  if (variable) {
    if (!/^[a-z0-9_-]*$/.test(variable.value)) throw new CustomizationError(`${variable.name} must be a CSS variable name of a-z, 0-9, _ and - (got "${variable.value}")`);
    const off = ['null', '0', 'false', 'no'].includes(variable.value);
    options.varName = off ? null : variable.value;
  }
  return options;
}

/** A JSONP callback: JavaScript names joined by dots (Iconify takes any of `[a-z0-9_.]`; these are the ones that can run). */
const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK_LENGTH = 100;

/** The `callback=` a JSON answer is wrapped in, `fallback` when none is given; a malformed one is refused. */
export function jsonpCallback(query: URLSearchParams, fallback?: string): string | undefined {
  if (query.has('callback') && single(query, 'callback') === undefined) throw new CustomizationError('callback must not be empty');
  const given = single(query, 'callback');
  if (given === undefined) return fallback;
  if (given.length > MAX_CALLBACK_LENGTH || !CALLBACK.test(given)) {
    throw new CustomizationError(`callback must be a JavaScript name of at most ${MAX_CALLBACK_LENGTH} characters, such as myCallback or app.icons (letters, digits, _ and $, joined by dots)`);
  }
  return given;
}
