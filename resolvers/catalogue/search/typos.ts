// Step 2 of a search: the spellings a misspelt token might have meant. Pure.
//
// Every string one edit away from the token (a letter deleted, two neighbours swapped, a letter
// replaced or inserted) is a candidate; the query keeps those that are words of the
// vocabulary (`search_words`) and much more common than what the token itself matches (see
// build-query.ts). One edit covers the usual slips (`arow`, `calender`, `serach`, `hoem`) and
// keeps the candidate list small: about 80 strings per letter of the token.

import { matchesAsPrefix } from './parse-query.ts';

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
  const variants = new Set<string>();
  const join = (parts: string[]) => parts.join('');
  for (let i = 0; i <= chars.length; i++) {
    const head = chars.slice(0, i);
    const tail = chars.slice(i);
    if (tail.length > 0) variants.add(join([...head, ...tail.slice(1)]));
    if (tail.length > 1) variants.add(join([...head, tail[1]!, tail[0]!, ...tail.slice(2)]));
    for (const letter of letters) {
      if (tail.length > 0) variants.add(join([...head, letter, ...tail.slice(1)]));
      variants.add(join([...head, letter, ...tail]));
    }
  }
  variants.delete(token);
  variants.delete('');
  return [...variants];
}
