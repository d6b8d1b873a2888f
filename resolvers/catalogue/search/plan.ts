// Step 3 of a search: everything the SQL needs, worked out in TypeScript from the tokens and
// the vocabulary (typo corrections included). Pure. The values here become bind parameters;
// none of them is ever spliced into SQL text.
import { matchesAsPrefix, MIN_PREFIX_CHARS, type ParsedQuery } from './parse-query.ts';
import { allOf, tsqueryTerm, type Weights } from './tsquery.ts';
import { correctionsOf } from './typos.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface SearchPlan {
  /** Lower-cased phrase the whole name may equal (tier 1). */
  phrase: string;
  /**
   * Whether names starting with the phrase match even when a short token is not a whole word
   * of the icon (`arrow l` -> "Arrow Left"). Only then does it add matches: when every token
   * matches as a prefix, such a name matches anyway. Never for phrases shorter than
   * MIN_PREFIX_CHARS: `a` would match every name starting with an a (25,000 on the full catalogue).
   */
  matchNamePrefix: boolean;
  /**
   * LIKE patterns, one per token, for `' ' || lower(name) || ' '`: the token starts a word of
   * the name (or is one, for a short token). All of them matching is tier 3.
   */
  nameWordPatterns: string[];
  /**
   * LIKE patterns for `lower(name) || ' '` and `' ' || lower(name) || ' '`: the phrase, and
   * every token, as whole words of the name. Within tiers 1-3, such names come before names
   * the query only starts a word of (`home`: "Home Eco" before "Homebrew").
   */
  wholePhrasePattern: string;
  wholeWordPatterns: string[];
  tokens: string[];
  /** Per token, its tsquery term in each scope: any field, name only, name/keywords/tags. */
  terms: Record<'any' | 'name' | 'nameOrTags', string[]>;
  /** The AND of those terms, per scope. */
  all: Record<'any' | 'name' | 'nameOrTags', string>;
  /**
   * Per scope, what an icon must match with corrections: every token, or for a misspelt token
   * one of its corrections, as a prefix (`('arow':* | 'arrow':*)`). `all` when nothing is corrected.
   */
  matching: Record<'any' | 'name' | 'nameOrTags', string>;
  /** Per token, the words it is corrected to (most common first); empty for a token not corrected. */
  corrections: string[][];
  /**
   * The tokens with each misspelt one replaced by its most common correction (`arow left` ->
   * `arrow left`); null when nothing is corrected.
   */
  fixedPhrase: string | null;
  /**
   * Upper bounds, from the vocabulary, of how many icons match every token as typed and with
   * corrections: the least of the tokens' icon counts (a correction's added to its token's).
   * They choose how the page ranks its matches (build-query.ts), never what it finds.
   */
  matchBound: { typed: number; matching: number };
}

const SCOPES = { any: '', name: 'A', nameOrTags: 'AB' } as const satisfies Record<string, Weights>;

/** null when the query has no token (it matches nothing). */
export function planSearch({ tokens, phrase }: ParsedQuery, vocabulary: Pick<Vocabulary, 'iconsOf' | 'iconsStartingWith'>): SearchPlan | null {
  if (tokens.length === 0) return null;
  const termsFor = (weights: Weights) => tokens.map((token) => tsqueryTerm(token, { prefix: matchesAsPrefix(token), weights }));
  const terms = { any: termsFor(SCOPES.any), name: termsFor(SCOPES.name), nameOrTags: termsFor(SCOPES.nameOrTags) };
  const all = { any: allOf(terms.any), name: allOf(terms.name), nameOrTags: allOf(terms.nameOrTags) };
  const corrections = correctionsOf(tokens, vocabulary);
  const corrected = corrections.some((words) => words.length > 0);
  const matchingFor = (scope: keyof typeof SCOPES) =>
    tokens
      .map((_, index) => `(${[terms[scope][index], ...corrections[index]!.map((word) => tsqueryTerm(word, { prefix: true, weights: SCOPES[scope] }))].join(' | ')})`)
      .join(' & ');
  return {
    phrase,
    matchNamePrefix: [...phrase].length >= MIN_PREFIX_CHARS && !tokens.every(matchesAsPrefix),
    nameWordPatterns: tokens.map((token) => `% ${escapeLike(token)}${matchesAsPrefix(token) ? '' : ' '}%`),
    wholePhrasePattern: `${escapeLike(phrase)} %`,
    wholeWordPatterns: tokens.map((token) => `% ${escapeLike(token)} %`),
    tokens,
    terms,
    all,
    matching: corrected ? { any: matchingFor('any'), name: matchingFor('name'), nameOrTags: matchingFor('nameOrTags') } : all,
    corrections,
    fixedPhrase: corrected ? tokens.map((token, index) => corrections[index]![0] ?? token).join(' ') : null,
    matchBound: matchBounds(tokens, corrections, vocabulary),
  };
}

function matchBounds(tokens: string[], corrections: string[][], vocabulary: Pick<Vocabulary, 'iconsOf' | 'iconsStartingWith'>): SearchPlan['matchBound'] {
  const iconsOfToken = (token: string) => (matchesAsPrefix(token) ? vocabulary.iconsStartingWith(token) : (vocabulary.iconsOf(token) ?? 0));
  const typed = tokens.map(iconsOfToken);
  const matching = typed.map((icons, index) => icons + corrections[index]!.reduce((sum, word) => sum + vocabulary.iconsStartingWith(word), 0));
  return { typed: Math.min(...typed), matching: Math.min(...matching) };
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
