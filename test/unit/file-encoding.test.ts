// SVG files are compressed per distinct file (every colour and size is one), so brotli runs with a
// window the size of the file (encoding.ts): the same bytes back, and output as small as brotli's
// default 4 MiB window gives (2,000 real icons: 0.25 % smaller in all, 8.6 times faster); and at a
// quality that costs real icons next to nothing against quality 9 (encoding.ts).
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BROTLI_QUALITY, brotliWindowBits, encode } from '../../gateway/plugins/icon-files/encoding.ts';

/** An SVG of about `bytes` bytes: paths with repeats (as icons have) and varying numbers, always the same. */
function svgOf(bytes: number): Buffer {
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'];
  let seed = bytes;
  for (let index = 0; parts.join('').length < bytes; index++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    parts.push(`<path fill="currentColor" d="M${index % 24} 2l${seed % 997}.5 ${seed % 13}c.29.288-.616.576-.963.859z"/>`);
  }
  return Buffer.from(`${parts.join('')}</svg>`);
}

describe('brotli window of a file', () => {
  it('holds the whole file, within brotli bounds', () => {
    expect(brotliWindowBits(309)).toBe(10);
    expect(brotliWindowBits(1024)).toBe(10);
    expect(brotliWindowBits(1025)).toBe(11);
    expect(brotliWindowBits(70_000)).toBe(17);
    expect(brotliWindowBits(100 * 1024 * 1024)).toBe(24);
  });

  it('gives back the same bytes, as small as with the default window (within 0.5 %)', () => {
    let sized = 0;
    let withDefaultWindow = 0;
    for (const bytes of [300, 900, 5_000, 40_000, 300_000]) {
      const svg = svgOf(bytes);
      const compressed = encode(svg, 'br');
      expect(brotliDecompressSync(compressed).equals(svg)).toBe(true);
      sized += compressed.length;
      withDefaultWindow += brotliCompressSync(svg, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: svg.length } }).length;
    }
    expect(sized).toBeLessThanOrEqual(withDefaultWindow * 1.005);
  });
});

describe('brotli quality', () => {
  it('costs real icons under 0.5 % more bytes than quality 9 (each file is compressed once, then kept)', () => {
    const require = createRequire(import.meta.url);
    let chosen = 0;
    let quality9 = 0;
    // Line icons, and flat emoji whose files are ten times larger: every 20th icon of each set.
    for (const set of ['mdi', 'tabler', 'solar', 'logos', 'fluent-emoji-flat']) {
      const { icons, width = 16, height = 16 } = require(`@iconify-json/${set}/icons.json`) as { icons: Record<string, { body: string; width?: number; height?: number }>; width?: number; height?: number };
      for (const [index, icon] of Object.values(icons).entries()) {
        if (index % 20) continue;
        const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1em" height="1em" viewBox="0 0 ${icon.width ?? width} ${icon.height ?? height}">${icon.body}</svg>`);
        chosen += encode(svg, 'br').length;
        quality9 += brotliCompressSync(svg, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: svg.length, [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(svg.length) } }).length;
      }
    }
    expect(quality9).toBeGreaterThan(100_000);
    expect(chosen).toBeLessThanOrEqual(quality9 * 1.005);
  });
});

