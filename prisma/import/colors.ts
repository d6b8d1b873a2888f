// Colour classification of SVG bodies without parsing the SVG: a regex finds paint values
// (fill, stroke, stop-color, ...), each distinct value is classified once by HSL and cached.

/** The fixed hue vocabulary, in the order hue names are listed on an icon. */
export const HUE_NAMES = [
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'pink',
  'brown',
  'black',
  'white',
  'gray',
] as const;
export type HueName = (typeof HUE_NAMES)[number];

const HUE_RANK = new Map<string, number>(HUE_NAMES.map((hue, index) => [hue, index]));
const BLACK_BIT = 1 << HUE_RANK.get('black')!;

/**
 * CSS named colours as RGB. The colours that occur in the five imported sets (orange, gold,
 * ivory, green, silver, gray, red, azure) plus the basic keywords; other names are ignored.
 */
const NAMED_COLORS: ReadonlyMap<string, readonly [number, number, number]> = new Map([
  ['black', [0, 0, 0]],
  ['white', [255, 255, 255]],
  ['gray', [128, 128, 128]],
  ['grey', [128, 128, 128]],
  ['silver', [192, 192, 192]],
  ['red', [255, 0, 0]],
  ['maroon', [128, 0, 0]],
  ['orange', [255, 165, 0]],
  ['gold', [255, 215, 0]],
  ['yellow', [255, 255, 0]],
  ['ivory', [255, 255, 240]],
  ['green', [0, 128, 0]],
  ['lime', [0, 255, 0]],
  ['olive', [128, 128, 0]],
  ['teal', [0, 128, 128]],
  ['blue', [0, 0, 255]],
  ['navy', [0, 0, 128]],
  ['azure', [240, 255, 255]],
  ['cyan', [0, 255, 255]],
  ['aqua', [0, 255, 255]],
  ['purple', [128, 0, 128]],
  ['magenta', [255, 0, 255]],
  ['fuchsia', [255, 0, 255]],
  ['pink', [255, 192, 203]],
  ['brown', [165, 42, 42]],
]);

export interface Rgba {
  r: number; // 0..255
  g: number;
  b: number;
  a: number; // 0..1
}

/**
 * Parses one paint value: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` (numbers or
 * percentages), `hsl()`/`hsla()`, or a known CSS colour name. Returns null for anything else,
 * including `none`, `transparent`, `currentColor`, `url(#...)` and unknown names.
 */
export function parseColor(value: string): Rgba | null {
  const text = value.trim().toLowerCase();
  if (text.startsWith('#')) return parseHex(text.slice(1));
  if (text.startsWith('rgb')) return parseRgbFunction(text);
  if (text.startsWith('hsl')) return parseHslFunction(text);
  const named = NAMED_COLORS.get(text);
  return named ? { r: named[0], g: named[1], b: named[2], a: 1 } : null;
}

function parseHex(hex: string): Rgba | null {
  if (!/^[0-9a-f]+$/.test(hex)) return null;
  if (hex.length === 3 || hex.length === 4) {
    const digit = (i: number) => parseInt(hex.charAt(i) + hex.charAt(i), 16);
    return { r: digit(0), g: digit(1), b: digit(2), a: hex.length === 4 ? digit(3) / 255 : 1 };
  }
  if (hex.length === 6 || hex.length === 8) {
    const pair = (i: number) => parseInt(hex.slice(i, i + 2), 16);
    return { r: pair(0), g: pair(2), b: pair(4), a: hex.length === 8 ? pair(6) / 255 : 1 };
  }
  return null;
}

/** Splits `name(a, b, c / d)` or `name(a b c)` into its numeric arguments. */
function functionArguments(text: string): string[] | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const parts = text
    .slice(open + 1, close)
    .split(/[\s,/]+/)
    .filter((part) => part.length > 0);
  return parts.length === 3 || parts.length === 4 ? parts : null;
}

function parseNumber(part: string, percentScale: number): number {
  const number = parseFloat(part);
  if (!Number.isFinite(number)) return NaN;
  return part.endsWith('%') ? (number / 100) * percentScale : number;
}

function parseAlpha(part: string | undefined): number {
  if (part === undefined) return 1;
  const alpha = parseNumber(part, 1);
  return Number.isFinite(alpha) ? clamp(alpha, 0, 1) : NaN;
}

function parseRgbFunction(text: string): Rgba | null {
  const parts = functionArguments(text);
  if (!parts) return null;
  const [r, g, b] = parts.slice(0, 3).map((part) => clamp(parseNumber(part, 255), 0, 255));
  const a = parseAlpha(parts[3]);
  if (![r, g, b, a].every(Number.isFinite)) return null;
  return { r: r!, g: g!, b: b!, a };
}

function parseHslFunction(text: string): Rgba | null {
  const parts = functionArguments(text);
  if (!parts) return null;
  const h = parseFloat(parts[0]!);
  const s = clamp(parseNumber(parts[1]!, 1), 0, 1);
  const l = clamp(parseNumber(parts[2]!, 1), 0, 1);
  const a = parseAlpha(parts[3]);
  if (![h, s, l, a].every(Number.isFinite)) return null;
  // HSL -> RGB (CSS Color 4 formula).
  const hue = ((h % 360) + 360) % 360;
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return 255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return { r: channel(0), g: channel(8), b: channel(4), a };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** RGB (0..255) -> HSL with h in degrees [0, 360), s and l in [0, 1]. */
export function rgbToHsl(r: number, g: number, b: number): { h: number; s: number; l: number } {
  const rn = r / 255;
  const gn = g / 255;
  const bn = b / 255;
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const chroma = max - min;
  if (chroma === 0) return { h: 0, s: 0, l };
  const s = chroma / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === rn) h = ((gn - bn) / chroma) % 6;
  else if (max === gn) h = (bn - rn) / chroma + 2;
  else h = (rn - gn) / chroma + 4;
  h *= 60;
  if (h < 0) h += 360;
  return { h, s, l };
}

/**
 * Classifies an HSL colour into the hue vocabulary. Thresholds (documented in the README ("Data: how an Iconify set becomes catalogue rows")):
 * - near-greys (s < 0.15): l < 0.20 black, l > 0.90 white, otherwise gray;
 * - any colour with l < 0.12 is black, l > 0.94 white;
 * - hue bands: red [345, 15), orange [15, 45), yellow [45, 70), green [70, 170),
 *   blue [170, 260), purple [260, 320), pink [320, 345);
 * - darker than l 0.40: orange/yellow hues [15, 50) and desaturated reds (s < 0.5) are brown;
 * - light reds (l >= 0.75) are pink.
 */
export function classifyHsl(h: number, s: number, l: number): HueName {
  if (s < 0.15) {
    if (l < 0.2) return 'black';
    if (l > 0.9) return 'white';
    return 'gray';
  }
  if (l < 0.12) return 'black';
  if (l > 0.94) return 'white';
  const reddish = h >= 345 || h < 15;
  if (l < 0.4 && ((h >= 15 && h < 50) || (reddish && s < 0.5))) return 'brown';
  if (reddish) return l >= 0.75 ? 'pink' : 'red';
  if (h < 45) return 'orange';
  if (h < 70) return 'yellow';
  if (h < 170) return 'green';
  if (h < 260) return 'blue';
  if (h < 320) return 'purple';
  return 'pink';
}

const classificationCache = new Map<string, HueName | null>();
const CACHE_LIMIT = 100_000;

/**
 * Hue name of one paint value, or null when it is not a colour (`none`, `currentColor`,
 * `url(#...)`, unknown names) or is fully transparent. Cached per distinct string.
 */
export function classifyColor(value: string): HueName | null {
  const cached = classificationCache.get(value);
  if (cached !== undefined) return cached;
  const rgba = parseColor(value);
  let hue: HueName | null = null;
  if (rgba && rgba.a > 0) {
    const { h, s, l } = rgbToHsl(rgba.r, rgba.g, rgba.b);
    hue = classifyHsl(h, s, l);
  }
  if (classificationCache.size >= CACHE_LIMIT) classificationCache.clear();
  classificationCache.set(value, hue);
  return hue;
}

// A paint property as an attribute (`fill="#f00"`, `stop-color='red'`) or a CSS declaration
// (`style="fill: rgb(255 0 0)"`). The lookbehind keeps `fill` from matching inside other names.
const PAINT_PATTERN =
  /(?<![\w-])(?:fill|stroke|stop-color|flood-color|lighting-color|color)\s*(?:=\s*["']?|:)\s*(#[0-9a-fA-F]+|(?:rgba?|hsla?)\([^)]*\)|[a-zA-Z]+)/g;

// Start and end tags, for the default-fill check (a token scan, not a DOM).
const TAG_PATTERN = /<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const OWN_FILL_PATTERN = /(?<![\w-])fill\s*[=:]/;
/** Elements whose area is painted with the fill (`line` has none). */
const FILLED_SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'polygon', 'polyline', 'text']);
/** Containers whose content is not drawn directly. */
const UNRENDERED = new Set([
  'defs',
  'clipPath',
  'mask',
  'pattern',
  'symbol',
  'marker',
  'linearGradient',
  'radialGradient',
  'filter',
]);

/**
 * True when some drawn shape has no fill of its own nor from an ancestor, so SVG paints it
 * with the default fill, black (`<path d="..."/>` in a logo). Shapes inside defs, masks,
 * clip paths, patterns and the like are not counted.
 */
export function usesDefaultFill(body: string): boolean {
  const stack: { filled: boolean; unrendered: boolean }[] = [];
  let filled = false;
  let unrendered = false;
  for (const [, closing, tag, attributes, selfClosing] of body.matchAll(TAG_PATTERN)) {
    if (closing) {
      const parent = stack.pop();
      filled = parent?.filled ?? false;
      unrendered = parent?.unrendered ?? false;
      continue;
    }
    const ownFill = OWN_FILL_PATTERN.test(attributes!);
    if (!filled && !unrendered && !ownFill && FILLED_SHAPES.has(tag!)) return true;
    if (!selfClosing) {
      stack.push({ filled, unrendered });
      filled ||= ownFill;
      unrendered ||= UNRENDERED.has(tag!);
    }
  }
  return false;
}

/**
 * Hue names of an SVG body, in vocabulary order without duplicates: every paint value
 * (fill, stroke, stop-color, flood-color, lighting-color, color; as attribute or in `style`),
 * plus black when a drawn shape falls back to the default fill.
 */
export function bodyHues(body: string): HueName[] {
  let mask = 0;
  for (const match of body.matchAll(PAINT_PATTERN)) {
    const hue = classifyColor(match[1]!);
    if (hue !== null) mask |= 1 << HUE_RANK.get(hue)!;
  }
  if ((mask & BLACK_BIT) === 0 && usesDefaultFill(body)) mask |= BLACK_BIT;
  return HUE_NAMES.filter((_, index) => (mask & (1 << index)) !== 0);
}
