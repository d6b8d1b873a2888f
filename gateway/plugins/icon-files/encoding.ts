// Content-coding of SVG files (PNGs are compressed already): brotli or gzip when the client's
// Accept-Encoding asks for it (q > 0), by node:zlib; identity otherwise and for tiny files.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Below this many bytes, compression saves less than its headers cost. */
const WORTH_COMPRESSING = 256;

/** The coding to answer with: br before gzip, each only when accepted with q > 0. */
export function chooseEncoding(acceptEncoding: string | undefined, bytes: number): Encoding {
  if (!acceptEncoding || bytes < WORTH_COMPRESSING) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    accepted.set(coding!.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (coding: string) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

export const BROTLI_QUALITY = 6;

/** Brotli's smallest and largest window, as log2 of its bytes. */
const BROTLI_WINDOW = { min: constants.BROTLI_MIN_WINDOW_BITS, max: constants.BROTLI_MAX_WINDOW_BITS } as const;

/**
 * The window brotli needs for `bytes`: one that holds the whole file finds every match a larger
 * one would. Brotli's default (4 MiB) made quality 9 set up tables of that size for every file,
 * which cost a small icon many times its compression, for a few bytes less output.
 */
export const brotliWindowBits = (bytes: number) => Math.min(BROTLI_WINDOW.max, Math.max(BROTLI_WINDOW.min, Math.ceil(Math.log2(Math.max(1, bytes)))));

export function encode(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 9 });
  // Quality 6 of 11: on real icons barely more bytes than quality 9, in clearly less time. Each
  // file is compressed once, then kept.
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length) },
  });
}
