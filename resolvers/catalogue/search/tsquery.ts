// tsquery text for one word, built in TypeScript. Tokens are letters and digits only (see
// parse-query.ts), but the word is still quoted and escaped the way tsquery's input syntax
// wants, so no word can ever be read as an operator. The text travels as a bind parameter.

/** Which parts of the search document a term may match: weight A is the name, B keywords and tags. */
export type Weights = '' | 'A' | 'AB';

export interface TermOptions {
  /** `word:*`: any lexeme starting with the word. */
  prefix: boolean;
  weights: Weights;
}

/** `'arrow':*A`, `'up'`, `'it''s'`. */
export function tsqueryTerm(word: string, { prefix, weights }: TermOptions): string {
  const quoted = `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  const flags = `${prefix ? '*' : ''}${weights}`;
  return flags ? `${quoted}:${flags}` : quoted;
}

/** Every term must match: `'arrow':*A & 'left':*A`. */
export function allOf(terms: readonly string[]): string {
  return terms.join(' & ');
}
