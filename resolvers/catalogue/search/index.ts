// `search`: a page of matching icon ids and the total, by relevance or by a sort of `icons`,
// with every filter of `icons`. The steps, one module each:
//   parse-query.ts  the text as tokens            typos.ts      typo corrections, in memory
//   tsquery.ts      tsquery text of a word        plan.ts       bind values for the SQL
//   vocabulary.ts   search_words in memory        build-query.ts the page and count statements
//   rank.ts         the relevance tiers
// The statements run on the reads layer (prisma/reads.ts), page and total in one (count-cache.ts).
// The vocabulary typo correction reads is refreshed by the importer (prisma/import/refresh-search.ts).
// How matching and ranking work: the README ("Search").
import type { Reads } from '../../../prisma/reads.ts';
import type { IconFilter, IdPage, PageRequest, SortKey } from '../filters.ts';
import { searchCountSql, searchPageSql } from './build-query.ts';
import { pageWithTotal } from '../count-cache.ts';
import { parseQuery } from './parse-query.ts';
import { planSearch } from './plan.ts';
import { vocabularyHolder, type VocabularyHolder } from './vocabulary.ts';

export { parseQuery, type ParsedQuery } from './parse-query.ts';

export interface SearchRequest extends PageRequest {
  q: string;
  filter?: IconFilter;
  /** null/undefined: relevance. */
  sort?: SortKey | null;
}

/**
 * Never throws on any `q` (an error here is a database error): a text without letters or
 * digits matches nothing. Validation of q's length belongs to the caller.
 */
export async function searchIconIds(reads: Reads, request: SearchRequest): Promise<IdPage> {
  const parsed = parseQuery(request.q);
  if (parsed.tokens.length === 0) return { ids: [], total: 0 };
  const vocabularies = vocabularyOf(reads);
  let vocabulary = await vocabularies.current();
  for (;;) {
    const plan = planSearch(parsed, vocabulary);
    if (!plan) return { ids: [], total: 0 };
    const { ids, total, searchDataVersion } = await pageWithTotal(reads, searchPageSql(plan, request), searchCountSql(plan, request.filter), 'search');
    // Corrections decided on an older vocabulary than the page's: decided again on the current one.
    if (searchDataVersion <= vocabulary.version) return { ids, total };
    vocabulary = await vocabularies.atLeast(searchDataVersion);
  }
}

const vocabularies = new WeakMap<Reads, VocabularyHolder>();

function vocabularyOf(reads: Reads): VocabularyHolder {
  let holder = vocabularies.get(reads);
  if (!holder) {
    holder = vocabularyHolder(reads);
    vocabularies.set(reads, holder);
  }
  return holder;
}
