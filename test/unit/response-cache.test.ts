// The REST response cache is what a long tail of distinct URLs fills: its bodies and keys must
// stay within cacheMaxBytes however many distinct responses pass through it (README, "Memory").
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../gateway/plugins/rest-routes/response-cache.ts';

const MAX_BYTES = 256 * 1024;

function response(bytes: number) {
  return { body: Buffer.alloc(bytes, 'x'), etag: '"e"' };
}

describe('response cache memory bound', () => {
  it('keeps at most maxBytes of bodies and keys under a long tail, the most recent ones', () => {
    const cache = new ResponseCache({ maxBytes: MAX_BYTES });
    const keys = Array.from({ length: 5_000 }, (_, index) => `/icons\u0000[["ref","icon-${index}"]]\u0000shared`);
    for (const key of keys) cache.set(key, response(1_000), 30);
    const kept = keys.filter((key) => cache.get(key) !== undefined);
    const keptBytes = kept.reduce((sum, key) => sum + 1_000 + key.length, 0);
    expect(keptBytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toContain(keys.at(-1));
    expect(cache.get(keys[0]!)).toBeUndefined();
  });

  it('does not keep a body larger than the whole bound', () => {
    const cache = new ResponseCache({ maxBytes: MAX_BYTES });
    cache.set('small', response(100), 30);
    cache.set('huge', response(MAX_BYTES + 1), 30);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
  });
});
