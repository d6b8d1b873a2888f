// The icons a tier of a search starts with (issue 12). Such a tier (build-query.ts) holds the
// icons whose name (or name, keywords or tags; or whole document) holds the word, or every word
// of a phrase, ranked by name length, popularity and id; for a word that tens of thousands of them
// hold (`duotone`: 25,328 names; `iconmind`, a set's tag: 31,722 icons), or a phrase of two common
// words (`shapes filled`: 14,722 icons), PostgreSQL read and sorted them all, 25 to 130 ms. Here
// a word's positions come as three runs, those whose name holds it, then those whose keywords or
// tags do, then the rest, each in the order of the names' lengths (snapshot.ts), and the shortest
// names in the scope's runs are the candidates: every icon of the tier outside them has a longer
// name than all of them, so when enough of them are in the tier the page's rows of that tier are
// among them, which the statement checks itself (build-query.ts). The runs are read one name
// length at a time, shortest first, only as far as the candidates need: a phrase's candidates
// hold every word, and a position two words of one token hold counts once.
import type { MatchQuery } from './search-totals.ts';
import { wordsOf } from './search-totals.ts';
import { MAX_NAME_LENGTH, type SearchWords } from './snapshot.ts';

/** Where a word must be: in the name; in the name, keywords or tags; anywhere in the document (the category too). */
export type NameScope = 'name' | 'nameOrTags' | 'any';

export interface NameCandidates {
  /** Every position where each token holds a word of its terms in the scope and whose name is at most some length, in no order. */
  positions: Int32Array;
  /** Whether they are every position where each token does. */
  complete: boolean;
  /**
   * Whether they include every position where each token's first term's word itself is in the
   * scope (not only a word it starts).
   */
  holdsWholeWords: boolean;
}

/**
 * The candidates of a query in a scope: at least `wanted` of them when that many icons hold a word
 * of each token's terms there, all of them when a token's words are on at most `most`, and
 * undefined when the shortest names past `wanted` are more than `most` (names of one length are
 * all in or all out) or finding them would look through too many positions (MAX_LOOKED_THROUGH).
 */
export type FindNameCandidates = (query: MatchQuery, scope: NameScope, wanted: number, most: number) => NameCandidates | undefined;

/**
 * Positions one call may look through; beyond, it finds nothing (the statement ranks the tier as
 * before). Each costs the thread tens of nanoseconds (`duotone`'s 124 shortest names 7 µs), more
 * in a phrase (the other words' binary searches); a word every icon's category holds has 265,000.
 */
const MAX_LOOKED_THROUGH = 40_000;

/** A phrase's other words may have this many runs in all (a short prefix starts hundreds of words); beyond, it finds nothing. */
const MAX_OTHER_RUNS = 64;

export function createNameCandidates(searchWords: SearchWords, size: number): FindNameCandidates {
  const { starts, nameEnds, tagEnds, positions, nameLengths } = searchWords;
  // One stamp per position: `pass` once seen in this pass; cleared when the passes wrap.
  const stamps = new Uint8Array(size);
  let pass = 0;
  /** The zones a scope spans, each as where it starts and ends in each word's positions. */
  const zones = { name: [starts, nameEnds], tags: [nameEnds, tagEnds], other: [tagEnds, starts.subarray(1)] } as const;
  const zonesOf = { name: [zones.name], nameOrTags: [zones.name, zones.tags], any: [zones.name, zones.tags, zones.other] } as const;

  /** Per token, its words' runs in the scope's zones, as pairs [next, end] of `positions` (empty runs left out). */
  function runsOf(query: MatchQuery, scope: NameScope): Int32Array[] {
    return query.map((terms) => {
      const runs: number[] = [];
      for (const term of terms) {
        const { from, to } = wordsOf(searchWords, term);
        for (let word = from; word < to; word++) for (const [zoneStarts, zoneEnds] of zonesOf[scope]) if (zoneEnds[word]! > zoneStarts[word]!) runs.push(zoneStarts[word]!, zoneEnds[word]!);
      }
      return Int32Array.from(runs);
    });
  }

  /** The positions left in runs. */
  function leftIn(runs: Int32Array): number {
    let left = 0;
    for (let r = 0; r < runs.length; r += 2) left += runs[r + 1]! - runs[r]!;
    return left;
  }

  /** The shortest name length left in the runs; MAX_NAME_LENGTH + 1 when they are all read. */
  function nextLength(runs: Int32Array): number {
    let length = MAX_NAME_LENGTH + 1;
    for (let r = 0; r < runs.length; r += 2) if (runs[r]! < runs[r + 1]!) length = Math.min(length, nameLengths[positions[runs[r]!]!]!);
    return length;
  }

  /** Whether one of the runs holds the position (of that name length): a binary search, as a run is in the order of length, then position (snapshot.ts). */
  function heldBy(runs: Int32Array, position: number, length: number): boolean {
    for (let r = 0; r < runs.length; r += 2) {
      let low = runs[r]!;
      let high = runs[r + 1]!;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const other = positions[middle]!;
        const otherLength = nameLengths[other]!;
        if (otherLength < length || (otherLength === length && other < position)) low = middle + 1;
        else high = middle;
      }
      if (low < runs[r + 1]! && positions[low] === position) return true;
    }
    return false;
  }

  /** The runs of each token, the token on the fewest positions first. */
  function leadingFirst(query: MatchQuery, scope: NameScope): { runs: Int32Array; listed: number }[] {
    return runsOf(query, scope)
      .map((runs) => ({ runs, listed: leftIn(runs) }))
      .sort((a, b) => a.listed - b.listed);
  }

  /**
   * Whether every position where each token's first term's word itself is in the scope (not only
   * a word it starts) has a name at most `maxLength` long: the leading word's longer names, longest
   * first, each looked for in the other words' runs. False when that would look through too many.
   */
  function wholeWordsWithin(query: MatchQuery, scope: NameScope, maxLength: number): boolean {
    const [leading, ...others] = leadingFirst(query.map((terms) => [{ word: terms[0]!.word, prefix: false }]), scope);
    let looked = 0;
    for (let r = 0; r < leading!.runs.length; r += 2) {
      for (let k = leading!.runs[r + 1]! - 1; k >= leading!.runs[r]! && nameLengths[positions[k]!]! > maxLength; k--) {
        if (++looked > MAX_LOOKED_THROUGH) return false;
        const position = positions[k]!;
        if (others.every(({ runs }) => heldBy(runs, position, nameLengths[position]!))) return false;
      }
    }
    return true;
  }

  return (query, scope, wanted, most) => {
    if (query.length === 0) return undefined;
    // The token on the fewest positions leads; each of its positions is looked for in the others' runs.
    const [{ runs: leading, listed }, ...others] = leadingFirst(query, scope) as [{ runs: Int32Array; listed: number }, ...{ runs: Int32Array; listed: number }[]];
    if (others.reduce((sum, { runs }) => sum + runs.length / 2, 0) > MAX_OTHER_RUNS) return undefined;
    // Leading positions on at most `most`: all their candidates are taken, and they are then complete.
    const enough = listed <= most ? Infinity : wanted;
    if (++pass > 0xff) {
      stamps.fill(0);
      pass = 1;
    }
    const found: number[] = [];
    let looked = 0;
    let maxLength = -1;
    // One name length at a time, shortest first, until enough are found.
    for (let length = nextLength(leading); length <= MAX_NAME_LENGTH && found.length < enough; length = nextLength(leading)) {
      for (let r = 0; r < leading.length; r += 2) {
        let k = leading[r]!;
        for (const end = leading[r + 1]!; k < end && nameLengths[positions[k]!] === length; k++) {
          const position = positions[k]!;
          if (stamps[position] === pass) continue;
          stamps[position] = pass;
          if (others.every(({ runs }) => heldBy(runs, position, length))) found.push(position);
        }
        looked += k - leading[r]!;
        leading[r] = k;
      }
      maxLength = length;
      if (looked > MAX_LOOKED_THROUGH || found.length > most) return undefined;
    }
    // No longer name holds the leading token when its runs are all read.
    const complete = leftIn(leading) === 0;
    return {
      positions: Int32Array.from(found),
      complete,
      holdsWholeWords: complete || wholeWordsWithin(query, scope, maxLength),
    };
  };
}
