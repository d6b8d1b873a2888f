// The icons a tier of a one-word search starts with (issue 12). Such a tier (build-query.ts,
// walkedSegment) holds the icons whose name (or name, keywords or tags; or whole document) holds
// the word, ranked by name length, popularity and id; for a word that tens of thousands of them
// hold (`duotone`: 25,328 names; `iconmind`, a set's tag: 31,722 icons), PostgreSQL read and
// sorted them all, 60 to 130 ms. Here a word's positions come as three runs, those whose name
// holds it, then those whose keywords or tags do, then the rest (snapshot.ts), and the shortest
// names in the scope's runs are the candidates: every icon of the tier outside them has a longer
// name than all of them, so when enough of them are in the tier the page's rows of that tier are
// among them, which the statement checks itself (build-query.ts). A prefix's words and a word's
// corrections are several lists; a position two of them hold counts once.
import type { MatchTerm } from './search-totals.ts';
import { lowerBound, wordsOf } from './search-totals.ts';
import { MAX_NAME_LENGTH, type SearchWords } from './snapshot.ts';

/** Where a word must be: in the name; in the name, keywords or tags; anywhere in the document (the category too). */
export type NameScope = 'name' | 'nameOrTags' | 'any';

export interface NameCandidates {
  /** Every position that holds a word of the terms in the scope and whose name is at most some length, in no order. */
  positions: Int32Array;
  /** Whether they are every position that holds a word of the terms in the scope. */
  complete: boolean;
  /** Whether they include every position that holds the first term's word itself in the scope (not only a word it starts). */
  holdsWholeWord: boolean;
}

/**
 * The candidates of `terms` in a scope: at least `wanted` of them when that many icons hold a word
 * of the terms there, all of them when there are at most `most`, and undefined when the shortest
 * names past `wanted` are more than `most` (names of one length are all in or all out) or the
 * words' lists are too long to look through (MAX_LOOKED_THROUGH).
 */
export type FindNameCandidates = (terms: readonly MatchTerm[], scope: NameScope, wanted: number, most: number) => NameCandidates | undefined;

/**
 * Positions the lists of one call may hold in all; beyond, it finds nothing (the statement ranks
 * the tier as before). Looking through them costs the thread about 20 ns a position on the full
 * catalogue (`duotone`'s 25,328 names 0.5 ms), and a word every icon's category holds has 265,000.
 */
const MAX_LOOKED_THROUGH = 40_000;

export function createNameCandidates(searchWords: SearchWords, size: number): FindNameCandidates {
  const { starts, nameEnds, tagEnds, positions, nameLengths } = searchWords;
  // One stamp per position: `pass` once seen in this pass; cleared when the passes wrap.
  const stamps = new Uint8Array(size);
  let pass = 0;
  const byLength = new Uint32Array(MAX_NAME_LENGTH + 1);
  /** Where each word's positions in the scope end. */
  const endsOf = (scope: NameScope) => (scope === 'name' ? nameEnds : scope === 'nameOrTags' ? tagEnds : starts.subarray(1));

  /** The positions that hold a word of the terms in the scope, each once; undefined when their lists hold more than MAX_LOOKED_THROUGH. */
  function namesOf(terms: readonly MatchTerm[], scope: NameScope): Int32Array | undefined {
    const ends = endsOf(scope);
    if (++pass > 0xff) {
      stamps.fill(0);
      pass = 1;
    }
    const ranges = terms.map((term) => wordsOf(searchWords, term));
    let listed = 0;
    for (const { from, to } of ranges) for (let word = from; word < to; word++) listed += ends[word]! - starts[word]!;
    if (listed > MAX_LOOKED_THROUGH) return undefined;
    const found = new Int32Array(listed);
    let count = 0;
    for (const { from, to } of ranges) {
      for (let word = from; word < to; word++) {
        for (let k = starts[word]!, end = ends[word]!; k < end; k++) {
          const position = positions[k]!;
          if (stamps[position] === pass) continue;
          stamps[position] = pass;
          found[count++] = position;
        }
      }
    }
    return found.subarray(0, count);
  }

  /** Whether every position holding `word` itself in the scope has a name at most `maxLength` long. */
  function wholeWordWithin(word: string | undefined, scope: NameScope, maxLength: number): boolean {
    if (word === undefined) return true;
    const index = lowerBound(searchWords.words, word);
    if (searchWords.words[index] !== word) return true;
    const ends = endsOf(scope);
    for (let k = starts[index]!, end = ends[index]!; k < end; k++) if (nameLengths[positions[k]!]! > maxLength) return false;
    return true;
  }

  return (terms, scope, wanted, most) => {
    const names = namesOf(terms, scope);
    if (!names) return undefined;
    if (names.length <= most) return { positions: names, complete: true, holdsWholeWord: true };
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
    return { positions: found, complete: count === names.length, holdsWholeWord: wholeWordWithin(terms[0]?.word, scope, maxLength) };
  };
}
