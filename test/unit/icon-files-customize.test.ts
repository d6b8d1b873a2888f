// The file route's SVG (icon-files/customize.ts) is @iconify/utils' iconToSVG + iconToHTML: a
// turned, flipped or sized file is made by the library, and the hand-written document of a file
// as it is must be exactly what the library makes of it, for the shapes of bodies the catalogue
// holds (square and not, fractional sizes, xlink references, a colour).
import { iconToHTML, iconToSVG, type IconifyIconCustomisations } from '@iconify/utils';
import { describe, expect, it } from 'vitest';
import { customizedSvg, type Customization } from '../../gateway/plugins/icon-files/customize.ts';

const BODIES = [
  { body: '<path fill="currentColor" d="M10 20v-6h4v6h5v-8h3L12 3L2 12h3v8z"/>', width: 24, height: 24 },
  { body: '<g fill="none" stroke="currentColor"><path d="M5 12l-2 0l9-9l9 9l-2 0"/></g>', width: 32, height: 20 },
  { body: '<defs><path id="a" d="M0 0h8v8z"/></defs><use xlink:href="#a" fill="#f00"/>', width: 256, height: 199 },
];

function library(icon: (typeof BODIES)[number], c: Customization): string {
  const customisations: IconifyIconCustomisations = {
    rotate: c.rotate,
    hFlip: c.hFlip,
    vFlip: c.vFlip,
    width: c.width ?? (c.height === undefined ? 'auto' : null),
    height: c.height ?? (c.width === undefined ? 'auto' : null),
  };
  const built = iconToSVG(icon, customisations);
  const svg = iconToHTML(built.body, built.attributes);
  return c.color ? svg.replace(/currentColor/gi, c.color) : svg;
}

describe('customizedSvg', () => {
  it('writes a file as it is exactly as the library does', () => {
    for (const icon of BODIES) {
      for (const color of [undefined, '#1e90ff']) {
        const c: Customization = { rotate: 0, hFlip: false, vFlip: false, ...(color ? { color } : {}) };
        expect(customizedSvg(icon.body, icon, c)).toBe(library(icon, c));
      }
    }
    expect(customizedSvg(BODIES[2]!.body, BODIES[2]!, { rotate: 0, hFlip: false, vFlip: false })).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
  });

  it('turns, flips and sizes as the library does', () => {
    const grid: Customization[] = [];
    for (const rotate of [0, 1, 2, 3]) {
      for (const [hFlip, vFlip] of [[false, false], [true, false], [false, true], [true, true]] as const) {
        for (const size of [{}, { width: 48 }, { height: 20 }, { width: 10, height: 30 }]) grid.push({ rotate, hFlip, vFlip, ...size });
      }
    }
    for (const icon of BODIES) {
      for (const c of grid) expect(customizedSvg(icon.body, icon, c), JSON.stringify(c)).toBe(library(icon, c));
    }
    expect(customizedSvg(BODIES[1]!.body, BODIES[1]!, { rotate: 1, hFlip: false, vFlip: false })).toContain('viewBox="0 0 20 32"');
  });
});
