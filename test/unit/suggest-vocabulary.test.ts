// The in-memory vocabulary behind /suggest: words counted once per icon, completions ranked by
// how many icons they reach, ties alphabetical.
import { describe, expect, it } from 'vitest';
import { Vocabulary } from '../../resolvers/catalogue/suggest.ts';

describe('the suggestion vocabulary', () => {
  const vocabulary = Vocabulary.fromTexts(['Home Bold home', 'Homebrew', 'House home', 'Horse', 'Hotel', 'Hotel Star', 'a b', 'Éclair éclat']);

  it('counts each word once per text, in lower case, leaving out one-letter words', () => {
    expect(vocabulary.complete('home', 10)).toEqual([
      { word: 'home', count: 2 },
      { word: 'homebrew', count: 1 },
    ]);
    expect(vocabulary.complete('a', 10)).toEqual([]);
    expect(vocabulary.complete('écl', 10)).toEqual([
      { word: 'éclair', count: 1 },
      { word: 'éclat', count: 1 },
    ]);
  });

  it('ranks by icons reached, then alphabetically, and keeps to the limit', () => {
    expect(vocabulary.complete('ho', 3)).toEqual([
      { word: 'home', count: 2 },
      { word: 'hotel', count: 2 },
      { word: 'homebrew', count: 1 },
    ]);
    expect(vocabulary.complete('zz', 3)).toEqual([]);
  });
});
