// Typo corrections decided in memory (typos.ts against vocabulary.ts): the rules of the README
// ("Search" / Typos) on a small vocabulary, with the figures of the full catalogue's `arow`.
import { describe, expect, it } from 'vitest';
import { correctionsOf } from '../../resolvers/catalogue/search/typos.ts';
import { Vocabulary } from '../../resolvers/catalogue/search/vocabulary.ts';

const vocabulary = Vocabulary.of(7, [
  ['arow', 8],
  ['arrow', 10_875],
  ['arrows', 900],
  ['row', 349],
  ['brow', 2_000],
  ['home', 4_864],
  ['homer', 3],
  ['calendar', 2_357],
  ['calender', 1],
  ['zebra', 40],
  ['zebras', 70],
]);

describe('the vocabulary in memory', () => {
  it('sums the icons of the words a prefix starts, itself included', () => {
    expect(vocabulary.version).toBe(7);
    expect(vocabulary.iconsStartingWith('arrow')).toBe(11_775);
    expect(vocabulary.iconsStartingWith('arr')).toBe(11_775);
    expect(vocabulary.iconsStartingWith('home')).toBe(4_867);
    expect(vocabulary.iconsStartingWith('zebra')).toBe(110);
    expect(vocabulary.iconsStartingWith('qq')).toBe(0);
    expect(vocabulary.iconsStartingWith('')).toBe(21_467);
    expect(vocabulary.iconsOf('row')).toBe(349);
    expect(vocabulary.iconsOf('ro')).toBeUndefined();
  });
});

describe('typo corrections', () => {
  it('corrects a rare token to the variants 10 times more common than it and at least a tenth of the best', () => {
    // arow: 8 icons; arrow 10,875 (kept), brow 2,000 (kept: >= 1,087.5), row 349 (under a tenth of arrow).
    expect(correctionsOf(['arow'], vocabulary)).toEqual([['arrow', 'brow']]);
    expect(correctionsOf(['calender', 'arow'], vocabulary)).toEqual([['calendar'], ['arrow', 'brow']]);
  });

  it('leaves common tokens, prefixes of common words, short and long tokens alone', () => {
    expect(correctionsOf(['home', 'arro', 'hom', 'zebr'], vocabulary)).toEqual([[], [], [], []]);
    expect(correctionsOf(['zebras'], vocabulary)).toEqual([[]]); // rare, but no variant 10 times more common
    expect(correctionsOf(['x'.repeat(21)], Vocabulary.of(1, [['x'.repeat(20), 1_000]]))).toEqual([[]]);
  });
});
