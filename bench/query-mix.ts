// Search queries as people type them, generated from the catalogue's own vocabulary with a
// seeded random source (the same vocabulary and seed give the same list): single words,
// two-word phrases, prefixes of 3 to 5 letters (typing in progress), and one-edit typos
// (a letter deleted, two neighbours swapped, one replaced, one inserted) of words of 4+ letters.
// Every query in a list is distinct.
import { type Random, seededRandom, shuffled, weightedOrder } from './random.ts';

export type QueryKind = 'word' | 'phrase' | 'prefix' | 'typo';

/**
 * Shares of the kinds. Search logs of icon and stock-image sites are mostly one word, then two;
 * prefixes come from search-as-you-type boxes, typos from everybody. A kind the vocabulary
 * cannot fill is made up with typos (of which every word has dozens).
 */
export const QUERY_MIX: Readonly<Record<QueryKind, number>> = { word: 0.45, phrase: 0.25, prefix: 0.15, typo: 0.15 };

export interface SearchVocabulary {
  /** Words of the search vocabulary (search_words) with the number of icons holding them. */
  words: readonly { word: string; ndoc: number }[];
  /** Two-word phrases found in icon names (adjacent words), with how many names hold them. */
  phrases: readonly { text: string; count: number }[];
}

export interface GeneratedQuery {
  text: string;
  kind: QueryKind;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
export const TYPO_MIN_LETTERS = 4;
export const PREFIX_LETTERS = [3, 4, 5] as const;
/** Passes over the vocabulary for the kinds that draw one variant of a word per pass. */
const VARIANT_PASSES = 8;

/** A word as people type it: letters only. */
export const isPlainWord = (word: string) => /^[a-z]{2,}$/.test(word);

/** One random edit of `word`: delete, swap neighbours, replace or insert a letter. */
export function oneEdit(word: string, random: Random): string {
  const at = random.below(word.length);
  const letter = random.pick([...LETTERS]);
  switch (random.below(4)) {
    case 0:
      return word.slice(0, at) + word.slice(at + 1);
    case 1: {
      const i = Math.min(at, word.length - 2);
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
    case 2:
      return word.slice(0, at) + letter + word.slice(at + 1);
    default:
      return word.slice(0, at) + letter + word.slice(at);
  }
}

/** Up to `count` queries of one kind from `candidates` (in the order given), skipping any already in `taken`. */
function take(kind: QueryKind, count: number, candidates: Iterable<string>, taken: Set<string>): GeneratedQuery[] {
  const out: GeneratedQuery[] = [];
  if (count <= 0) return out;
  for (const text of candidates) {
    if (taken.has(text)) continue;
    taken.add(text);
    out.push({ text, kind });
    if (out.length >= count) break;
  }
  return out;
}

function* prefixesOf(words: readonly string[], vocabulary: Set<string>, random: Random): Generator<string> {
  for (let pass = 0; pass < VARIANT_PASSES; pass++) {
    for (const word of words) {
      const letters = random.pick(PREFIX_LETTERS);
      // A proper prefix, and not a word of its own (that would be a word query).
      if (word.length > letters && !vocabulary.has(word.slice(0, letters))) yield word.slice(0, letters);
    }
  }
}

function* typosOf(words: readonly string[], vocabulary: Set<string>, random: Random): Generator<string> {
  const long = words.filter((word) => word.length >= TYPO_MIN_LETTERS);
  for (let pass = 0; pass < VARIANT_PASSES; pass++) {
    for (const word of long) {
      const typo = oneEdit(word, random);
      // A typo that lands on another real word is not a typo.
      if (typo !== word && !vocabulary.has(typo)) yield typo;
    }
  }
}

/**
 * The most queries a vocabulary gives in the QUERY_MIX proportions: past it, generateQueries fills
 * the list with typos (the demo catalogue's 6,025 words made 45 % typos of 40,000 queries).
 */
export function queriesInMix(vocabulary: SearchVocabulary): number {
  const plain = vocabulary.words.filter(({ word }) => isPlainWord(word)).length;
  return Math.floor(Math.min(plain / QUERY_MIX.word, vocabulary.phrases.length / QUERY_MIX.phrase));
}

/** `count` distinct queries in the QUERY_MIX proportions (as far as the vocabulary allows), shuffled. */
export function generateQueries(vocabulary: SearchVocabulary, count: number, seed: number): GeneratedQuery[] {
  const random = seededRandom(seed);
  const plain = vocabulary.words.filter(({ word }) => isPlainWord(word));
  const known = new Set(plain.map(({ word }) => word));
  // Common words are searched more often: drawn weighted by how many icons hold them.
  const words = weightedOrder(plain, ({ ndoc }) => ndoc, random).map(({ word }) => word);
  const phrases = weightedOrder(vocabulary.phrases, ({ count: n }) => n, random).map(({ text }) => text);
  const target = (kind: QueryKind) => Math.round(count * QUERY_MIX[kind]);
  const taken = new Set<string>();
  const queries = [
    ...take('word', target('word'), words, taken),
    ...take('phrase', target('phrase'), phrases, taken),
    ...take('prefix', target('prefix'), prefixesOf(words, known, random), taken),
  ];
  // concat, not push(...): thousands of arguments overflow the stack.
  return shuffled(queries.concat(take('typo', count - queries.length, typosOf(words, known, random), taken)), random);
}

/** How many queries of each kind a list holds. */
export function kindCounts(queries: readonly GeneratedQuery[]): Record<QueryKind, number> {
  const counts: Record<QueryKind, number> = { word: 0, phrase: 0, prefix: 0, typo: 0 };
  for (const { kind } of queries) counts[kind]++;
  return counts;
}
