// Step 3 of a search: everything the SQL needs, worked out in TypeScript from the tokens.
// Pure. The values here become bind parameters; none of them is ever spliced into SQL text.
import { matchesAsPrefix, MIN_PREFIX_CHARS, type ParsedQuery } from './parse-query.ts';
import { allOf, tsqueryTerm, type Weights } from './tsquery.ts';
import { isCorrectable, oneEditVariants } from './typos.ts';

export interface SearchPlan {
  /** Lower-cased phrase the whole name may equal (tier 1). */
  phrase: string;
  /** LIKE pattern for names starting with the phrase (tier 2), metacharacters escaped. */
  namePrefix: string;
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
  tokens: string[];
  /** Per token, its tsquery term in each scope: any field, name only, name/keywords/tags. */
  terms: Record<'any' | 'name' | 'nameOrTags', string[]>;
  /** The AND of those terms, per scope. */
  all: Record<'any' | 'name' | 'nameOrTags', string>;
  /** One-edit variants of the correctable tokens, and the (1-based) token each belongs to. */
  variants: string[];
  variantTokens: number[];
}

const SCOPES = { any: '', name: 'A', nameOrTags: 'AB' } as const satisfies Record<string, Weights>;

/** null when the query has no token (it matches nothing). */
export function planSearch({ tokens, phrase }: ParsedQuery): SearchPlan | null {
  if (tokens.length === 0) return null;
  const termsFor = (weights: Weights) => tokens.map((token) => tsqueryTerm(token, { prefix: matchesAsPrefix(token), weights }));
  const terms = { any: termsFor(SCOPES.any), name: termsFor(SCOPES.name), nameOrTags: termsFor(SCOPES.nameOrTags) };
  const variants: string[] = [];
  const variantTokens: number[] = [];
  tokens.forEach((token, index) => {
    if (!isCorrectable(token)) return;
    for (const variant of oneEditVariants(token)) {
      variants.push(variant);
      variantTokens.push(index + 1);
    }
  });
  return {
    phrase,
    namePrefix: `${escapeLike(phrase)}%`,
    matchNamePrefix: [...phrase].length >= MIN_PREFIX_CHARS && !tokens.every(matchesAsPrefix),
    nameWordPatterns: tokens.map((token) => `% ${escapeLike(token)}${matchesAsPrefix(token) ? '' : ' '}%`),
    tokens,
    terms,
    all: { any: allOf(terms.any), name: allOf(terms.name), nameOrTags: allOf(terms.nameOrTags) },
    variants,
    variantTokens,
  };
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
