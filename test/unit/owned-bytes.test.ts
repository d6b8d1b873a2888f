// Cached bytes must hold only their own memory: a slice of zlib's output chunk or of Buffer's
// shared pool held a whole 16 or 8 KiB block per cached file or response (lib/owned-bytes.ts).
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encode } from '../../gateway/plugins/icon-files/encoding.ts';
import { ResponseCache } from '../../gateway/plugins/rest-routes/response-cache.ts';
import { ownedBytes, ownedUtf8 } from '../../lib/owned-bytes.ts';

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="currentColor" d="M12 2L2 7l10 5l10-5z"/></svg>'.repeat(3));
const ownsItsBlock = (bytes: Buffer) => bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;

describe('ownedBytes', () => {
  it('copies compressed output into a block of its own size, the same bytes', () => {
    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const made = encode(SVG, encoding);
      const owned = ownedBytes(made);
      expect(ownsItsBlock(owned)).toBe(true);
      expect(owned.equals(made)).toBe(true);
      expect(decode(owned).equals(SVG)).toBe(true);
    }
  });

  it('copies a slice of the shared pool, and keeps a buffer that is already its whole block', () => {
    const pooled = Buffer.from('{"data":[]}');
    const owned = ownedBytes(pooled);
    expect(ownsItsBlock(owned)).toBe(true);
    expect(owned.toString()).toBe('{"data":[]}');
    const whole = Buffer.allocUnsafeSlow(10).fill(1);
    expect(ownedBytes(whole)).toBe(whole);
  });
});

describe('ownedUtf8', () => {
  it('encodes text as Buffer.from does, short or long, into a block of its own that the cache keeps as it is', () => {
    for (const text of ['{}', '{"name":"Pâte à crêpes","emoji":"🦊"}', `{"data":${JSON.stringify('ü'.repeat(5000))}}`]) {
      const bytes = ownedUtf8(text);
      expect(bytes.equals(Buffer.from(text))).toBe(true);
      expect(ownsItsBlock(bytes)).toBe(true);
      expect(ownedBytes(bytes)).toBe(bytes);
    }
  });
});

describe('response cache', () => {
  it('keeps a body that holds its own memory, not the pool block it was cut from', () => {
    const cache = new ResponseCache({ maxBytes: 1024 * 1024 });
    cache.set('k', { body: Buffer.from('{"data":{"id":1}}'), etag: '"e"' }, 30);
    const kept = cache.get('k')!;
    expect(ownsItsBlock(kept.body)).toBe(true);
    expect(kept.body.toString()).toBe('{"data":{"id":1}}');
  });
});
