// An icon's SVG document from its Iconify body and size. A body leaves the gateway sanitized
// (lib/svg/sanitize.ts), whatever wrote the row: as it is when it carries the importer's mark
// for this sanitizer, else sanitized again here, and the result of each body is remembered (a
// pure function of it), bounded by size.
import { LRUCache } from 'lru-cache';
import { sanitizedMark, sanitizeSvgBody } from '../lib/svg/sanitize.ts';

const sanitized = new LRUCache<string, string>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (value, key) => value.length + key.length });

/** The body with only what draws the icon; `mark` is the row's `body_mark`. */
export function safeSvgBody(body: string, mark: string | null): string {
  if (mark !== null && mark === sanitizedMark(body)) return body;
  let clean = sanitized.get(body);
  if (clean === undefined) {
    clean = sanitizeSvgBody(body);
    sanitized.set(body, clean);
  }
  return clean;
}

/** The SVG document of a body that is already safe (safeSvgBody). */
export function svgMarkup(safeBody: string, width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${safeBody}</svg>`;
}
