// Step 2 of a search: the spellings a misspelt token might have meant, decided in memory
// against the vocabulary (vocabulary.ts). Pure.
//
// Every string one edit away from the token (a letter deleted, two neighbours swapped, a letter
// replaced or inserted) is a candidate; corrections are those that are words of the
// vocabulary (`search_words`) and much more common than what the token itself matches. One
// edit covers the usual slips (`arow`, `calender`, `serach`, `hoem`): about 80 candidates per
// letter of the token, looked up in a Map, and only the corrections found go to the database.

import { matchesAsPrefix } from './parse-query.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Tokens shorter than this are never corrected: too many real words lie one edit away. */
export const MIN_CORRECTED_CHARS = 4;
/** Nor are longer ones: their variants would be thousands, and long words are rarely mistyped alone. */
export const MAX_CORRECTED_CHARS = 20;

const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

export function isCorrectable(token: string): boolean {
  const length = [...token].length;
  return matchesAsPrefix(token) && length >= MIN_CORRECTED_CHARS && length <= MAX_CORRECTED_CHARS;
}

/** Distinct strings at edit distance one (optimal string alignment) from the token, the token excluded. */
export function oneEditVariants(token: string): string[] {
  const chars = [...token];
  const letters = [...new Set([...ALPHABET, ...chars])];
  // heads[i]: the token's first i characters, tails[i]: the rest (characters are code points, so
  // no edit splits a surrogate pair). Each variant is one concatenation: this runs for every
  // letter at every position of every rare token of a search miss.
  const heads = [...chars.keys(), chars.length].map((count) => chars.slice(0, count).join(''));
  const tails = heads.map((head) => token.slice(head.length));
  const variants = new Set<string>();
  for (let i = 0; i <= chars.length; i++) {
    const head = heads[i]!;
    const hasNext = i < chars.length;
    if (hasNext) variants.add(head + tails[i + 1]);
    if (i + 1 < chars.length) variants.add(head + chars[i + 1] + chars[i] + tails[i + 2]);
    for (const letter of letters) {
      if (hasNext) variants.add(head + letter + tails[i + 1]);
      variants.add(head + letter + tails[i]);
    }
  }
  variants.delete(token);
  variants.delete('');
  return [...variants];
}

/** A token is corrected only when the words it starts occur in fewer icons than this (it is rare). */
export const RARE_TOKEN_MATCHES = 100;
/** A correction occurs in this many times more icons than the token, and in at least 1/this of the best one's. */
export const CORRECTION_RATIO = 10;

/**
 * Per token (same order), the words it may have meant, most common first (then in code-unit
 * order); an empty list when it is not corrected.
 * A token is corrected when it is rare: the words of the vocabulary it is a prefix of occur in
 * fewer than RARE_TOKEN_MATCHES icons (it is not even a prefix of a common word). Its one-edit
 * variants are looked up in the vocabulary; a variant is a correction when it occurs in
 * CORRECTION_RATIO times more icons than the token matches, and in at least 1/CORRECTION_RATIO
 * as many icons as the best variant. `arow` (8 icons on the full catalogue, from aliases) ->
 * arrow (10,875), not row (349); `hom` and `home` are never looked at.
 */
export function correctionsOf(tokens: readonly string[], vocabulary: Pick<Vocabulary, 'iconsOf' | 'iconsStartingWith'>): string[][] {
  return tokens.map((token) => {
    if (!isCorrectable(token)) return [];
    const tokenIcons = vocabulary.iconsStartingWith(token);
    if (tokenIcons >= RARE_TOKEN_MATCHES) return [];
    const candidates: [word: string, icons: number][] = [];
    for (const variant of oneEditVariants(token)) {
      const icons = vocabulary.iconsOf(variant);
      if (icons !== undefined) candidates.push([variant, icons]);
    }
    const best = Math.max(0, ...candidates.map(([, icons]) => icons));
    return candidates
      .filter(([, icons]) => icons > CORRECTION_RATIO * tokenIcons && icons * CORRECTION_RATIO >= best)
      .sort(([a, aIcons], [b, bIcons]) => bIcons - aIcons || (a < b ? -1 : a > b ? 1 : 0))
      .map(([word]) => word);
  });
}
