// Step 1 of a search: the user's text as tokens. Pure, never throws, whatever the string.
//
// A token is a run of letters, combining marks and digits (Unicode), lower-cased after NFKC
// normalisation: the same words PostgreSQL's `simple` text-search configuration makes of an
// icon's name, keywords and tags (for ASCII text exactly; names are ASCII). Everything else
// (punctuation, tsquery operators, quotes, backslashes, emoji, control characters) only
// separates tokens, so it can never reach SQL as syntax (lone surrogates included: they are
// not letters). A text without any token is a search for nothing. How long a text may be is
// the `q` argument's rule (its @constraint in schema.graphql), checked before a search runs.

/** More tokens than this are dropped: each costs a term in every tsquery. */
export const MAX_TOKENS = 8;
/** Longer tokens are cut; they still match as a prefix of the longer word. */
export const MAX_TOKEN_CHARS = 64;
/** Tokens shorter than this match whole words only, never as a prefix (`a` is not `a*`). */
export const MIN_PREFIX_CHARS = 3;

export interface ParsedQuery {
  /** Distinct tokens in the order they were typed. */
  tokens: string[];
  /** Every token (repeats included) joined by one space: compared with the lower-cased name. */
  phrase: string;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

export function parseQuery(text: string): ParsedQuery {
  const normalized = text.normalize('NFKC').toLowerCase();
  const typed = (normalized.match(TOKEN) ?? []).slice(0, MAX_TOKENS).map((token) => [...token].slice(0, MAX_TOKEN_CHARS).join(''));
  return { tokens: [...new Set(typed)], phrase: typed.join(' ') };
}

/** Whether a token matches words that start with it (long enough) or only whole words. */
export function matchesAsPrefix(token: string): boolean {
  return [...token].length >= MIN_PREFIX_CHARS;
}
