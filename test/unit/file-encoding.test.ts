// SVG files are compressed per distinct file (every colour and size is one), so brotli runs with a
// window the size of the file (encoding.ts): the same bytes back, and output as small as brotli's
// default 4 MiB window gives (2,000 real icons: 0.25 % smaller in all, 8.6 times faster).
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliWindowBits, encode } from '../../gateway/plugins/icon-files/encoding.ts';

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
      withDefaultWindow += brotliCompressSync(svg, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: svg.length } }).length;
    }
    expect(sized).toBeLessThanOrEqual(withDefaultWindow * 1.005);
  });
});
