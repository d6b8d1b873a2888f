// A search's total counted in the list index's snapshot (issue 12): the icons whose search
// document matches every token, a token through any of its terms (the word as typed, or a
// correction; plan.ts `matching.any`), as `search @@ tsquery` matches them. Counting was half of
// PostgreSQL's time for a search miss (a bitmap of every match, each row visited), and the whole
// of the slowest ones: a typo corrected to a word on 265,000 icons took 146 ms. Here a total
// costs one pass over the positions of the words the terms match: 0.08 to 0.12 ms on average
// for the bench's queries on the full catalogue, 6 to 10 ms at worst.
import type { SearchWords } from './snapshot.ts';

/** One term of a token: the word, as a whole word, or (`prefix`) every word it starts (`'arrow':*`). */
export interface MatchTerm {
  word: string;
  prefix: boolean;
}

/** Every token must match one of its terms. */
export type MatchQuery = readonly (readonly MatchTerm[])[];

/** The first index whose word is not before `word` (code-unit order). */
export function lowerBound(words: readonly string[], word: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (words[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The indexes of the words the term matches: the word itself, or every word it starts (adjacent in code-unit order). */
export function wordsOf({ words }: SearchWords, { word, prefix }: MatchTerm): { from: number; to: number } {
  const from = lowerBound(words, word);
  let to = from;
  while (to < words.length && (prefix ? words[to]!.startsWith(word) : words[to] === word)) to++;
  return { from, to };
}

/**
 * Counts the positions that match a query and that `accepts` takes (a filter). One stamp per
 * position, kept between calls: a position has matched tokens 0..t when its stamp is
 * `base + t + 1`, and each call starts above every stamp the previous ones left, so nothing is
 * cleared per call. A position two terms of one token reach is stamped, and counted, once.
 */
export function createMatchCounter(searchWords: SearchWords, size: number): (query: MatchQuery, accepts?: (position: number) => boolean) => number {
  const { starts, positions } = searchWords;
  const stamps = new Uint32Array(size);
  let base = 0;
  return (query, accepts) => {
    if (query.length === 0) return 0;
    if (base + query.length + 1 >= 0xffffffff) {
      stamps.fill(0);
      base = 0;
    }
    const last = query.length - 1;
    let count = 0;
    for (const [token, terms] of query.entries()) {
      const before = base + token;
      const after = before + 1;
      for (const term of terms) {
        const { from, to } = wordsOf(searchWords, term);
        // The matched words' positions are one run of `positions`.
        for (let k = starts[from]!, end = starts[to]!; k < end; k++) {
          const position = positions[k]!;
          if (token > 0 && stamps[position] !== before) continue;
          if (token === 0 && stamps[position] === after) continue;
          stamps[position] = after;
          if (token === last && (accepts === undefined || accepts(position))) count++;
        }
      }
    }
    base += query.length;
    return count;
  };
}
