// An icon's SVG document from its Iconify body and size. The body is sanitized on the way out
// too (lib/svg/sanitize.ts), whatever wrote the row; the result of each body is remembered (a
// pure function of it), bounded by size.
import { LRUCache } from 'lru-cache';
import { sanitizeSvgBody } from '../lib/svg/sanitize.ts';

const sanitized = new LRUCache<string, string>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (value, key) => value.length + key.length });

/** The body with only what draws the icon. */
export function safeSvgBody(body: string): string {
  let clean = sanitized.get(body);
  if (clean === undefined) {
    clean = sanitizeSvgBody(body);
    sanitized.set(body, clean);
  }
  return clean;
}

export function svgMarkup(body: string, width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${safeSvgBody(body)}</svg>`;
}
