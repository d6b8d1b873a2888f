// `search`: a page of matching icon ids and the total, by relevance or by a sort of `icons`,
// with every filter of `icons`. The steps, one module each:
//   parse-query.ts  the text as tokens            typos.ts      one-edit variants of a token
//   tsquery.ts      tsquery text of a word        plan.ts       bind values for the SQL
//   query-row.ts    tsqueries, typo correction    build-query.ts the page and count statements
//   rank.ts         the relevance tiers
// The vocabulary typo correction reads is refreshed by the importer (prisma/import/refresh-search.ts).
// How matching and ranking work: the README ("Search").
import type { PrismaClient } from '../../../prisma/generated/client.ts';
import type { IconFilter, IdPage, PageRequest, SortKey } from '../filters.ts';
import { searchCountSql, searchPageSql } from './build-query.ts';
import { pageWithTotal } from '../count-cache.ts';
import { parseQuery } from './parse-query.ts';
import { planSearch } from './plan.ts';

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
export async function searchIconIds(prisma: PrismaClient, request: SearchRequest): Promise<IdPage> {
  const plan = planSearch(parseQuery(request.q));
  if (!plan) return { ids: [], total: 0 };
  return pageWithTotal(prisma, searchPageSql(plan, request), searchCountSql(plan, request.filter));
}
