// The names a one-word search's name tier starts with (issue 12). That tier (build-query.ts,
// walkedSegment) holds the icons whose name holds the word, ranked by name length, popularity and
// id; for a word that tens of thousands of names hold (`duotone`: 25,328), PostgreSQL read and
// sorted them all, 60 to 110 ms. Here the positions whose name holds a word of the term come
// first in the word's list (snapshot.ts), and the shortest names among them are the candidates:
// every name of the tier outside them is longer than all of them, so when enough of them are in
// the tier the page's rows of that tier are among them, which the statement checks itself
// (build-query.ts). A prefix's words and a word's corrections are several lists; a position two
// of them hold counts once.
import type { MatchTerm } from './search-totals.ts';
import { wordsOf } from './search-totals.ts';
import { MAX_NAME_LENGTH, type SearchWords } from './snapshot.ts';

export interface NameCandidates {
  /** Every position whose name holds a word of the terms and is at most `maxLength` long, in no order. */
  positions: Int32Array;
  /** Whether they are every position whose name holds a word of the terms. */
  complete: boolean;
}

/**
 * The candidates of `terms`: at least `wanted` of them when that many names hold a word of the
 * terms, all of them when there are at most `most`, and undefined when the shortest names past
 * `wanted` are more than `most` (names of one length are all in or all out).
 */
export type FindNameCandidates = (terms: readonly MatchTerm[], wanted: number, most: number) => NameCandidates | undefined;

export function createNameCandidates(searchWords: SearchWords, size: number): FindNameCandidates {
  const { starts, nameEnds, positions, nameLengths } = searchWords;
  // One stamp per position: `pass` once seen in this pass; cleared when the passes wrap.
  const stamps = new Uint8Array(size);
  let pass = 0;
  const byLength = new Uint32Array(MAX_NAME_LENGTH + 1);

  /** The positions whose name holds a word of the terms, each once. */
  function namesOf(terms: readonly MatchTerm[]): Int32Array {
    if (++pass > 0xff) {
      stamps.fill(0);
      pass = 1;
    }
    const ranges = terms.map((term) => wordsOf(searchWords, term));
    let most = 0;
    for (const { from, to } of ranges) for (let word = from; word < to; word++) most += nameEnds[word]! - starts[word]!;
    const found = new Int32Array(most);
    let count = 0;
    for (const { from, to } of ranges) {
      for (let word = from; word < to; word++) {
        for (let k = starts[word]!, end = nameEnds[word]!; k < end; k++) {
          const position = positions[k]!;
          if (stamps[position] === pass) continue;
          stamps[position] = pass;
          found[count++] = position;
        }
      }
    }
    return found.subarray(0, count);
  }

  return (terms, wanted, most) => {
    const names = namesOf(terms);
    if (names.length <= most) return { positions: names, complete: true };
    byLength.fill(0);
    for (const position of names) byLength[nameLengths[position]!]!++;
    let maxLength = 0;
    let count = 0;
    for (; maxLength < MAX_NAME_LENGTH && count + byLength[maxLength]! < wanted; maxLength++) count += byLength[maxLength]!;
    count += byLength[maxLength]!;
    if (count > most) return undefined;
    const found = new Int32Array(count);
    let taken = 0;
    for (const position of names) if (nameLengths[position]! <= maxLength) found[taken++] = position;
    return { positions: found, complete: count === names.length };
  };
}
