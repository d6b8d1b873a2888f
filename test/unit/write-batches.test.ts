import { describe, expect, it } from 'vitest';
import type { MappedIcon } from '../../prisma/import/map-set.ts';
import { BATCH_BYTES, BATCH_SIZE, batches } from '../../prisma/import/write-set.ts';

const icon = (bodyLength: number, i: number) => ({ sourceName: `i${i}`, body: 'x'.repeat(bodyLength) }) as MappedIcon;

describe('import batches', () => {
  it('cuts small icons by count and keeps every icon once, in order', () => {
    const icons = Array.from({ length: 2 * BATCH_SIZE + 7 }, (_, i) => icon(10, i));
    const out = [...batches(icons)];
    expect(out.map((batch) => batch.length)).toEqual([BATCH_SIZE, BATCH_SIZE, 7]);
    expect(out.flat()).toEqual(icons);
  });

  it('cuts large bodies by bytes, and never leaves an oversized icon out', () => {
    const big = Math.floor(BATCH_BYTES / 3) + 1;
    const icons = [icon(big, 0), icon(big, 1), icon(big, 2), icon(BATCH_BYTES * 2, 3), icon(1, 4)];
    const out = [...batches(icons)];
    expect(out.map((batch) => batch.map((i) => i.sourceName))).toEqual([['i0', 'i1'], ['i2'], ['i3'], ['i4']]);
    for (const batch of out) {
      const bytes = batch.reduce((sum, i) => sum + i.body.length, 0);
      expect(batch.length === 1 || bytes <= BATCH_BYTES).toBe(true);
    }
  });

  it('gives nothing for no icons', () => {
    expect([...batches([])]).toEqual([]);
  });
});
