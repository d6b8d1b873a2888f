// `search`: a page of matching icon ids and the total, by relevance or by a sort of `icons`,
// with every filter of `icons`. The steps, one module each:
//   parse-query.ts  the text as tokens            typos.ts      typo corrections, in memory
//   tsquery.ts      tsquery text of a word        plan.ts       bind values for the SQL
//   vocabulary.ts   search_words in memory        build-query.ts the page and count statements
//   rank.ts         the relevance tiers
// The statements run on the reads layer (prisma/reads.ts), page and total in one (count-cache.ts);
// the totals of the commonest one-word searches come counted with the vocabulary, and most
// others are counted in memory by the list index (list-index/search-totals.ts), so that the
// statement reads only the page.
// The vocabulary typo correction reads is refreshed by the importer (prisma/import/refresh-search.ts).
// How matching and ranking work: the README ("Search").
import { perReads, type Reads } from '../../../prisma/reads.ts';
import { isUnfiltered, offsetOf, type IconFilter, type IdPage, type PageRequest, type SortKey } from '../filters.ts';
import { planFitsEveryValue, searchCountSql, searchPageSql, walkedSegments, type NamedSegments, type TierCandidates } from './build-query.ts';
import { pageWithTotal, type Counted } from '../count-cache.ts';
import { listIndexOf, type MatchQuery } from '../list-index/index.ts';
import { matchesAsPrefix, parseQuery } from './parse-query.ts';
import { planSearch, type SearchPlan } from './plan.ts';
import { vocabularyHolder, type Vocabulary } from './vocabulary.ts';

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
    const query = matchQueryOf(plan);
    const kept = isUnfiltered(request.filter) ? oneTokenTotal(plan, vocabulary) : undefined;
    const counted = kept ? undefined : indexedTotal(reads, plan, query, request.filter);
    const named = namedSegments(reads, plan, query, request, counted?.total);
    const page = searchPageSql(plan, request, { named });
    const reading = { genericPlan: planFitsEveryValue(request), offset: offsetOf(request) };
    const { ids, total, version, searchDataVersion } = await pageWithTotal(reads, page, searchCountSql(plan, request.filter), 'search', kept ?? counted, reading);
    // The index counted at an older catalogue than the page's (the page was read again with its count): rebuild it.
    if (counted && version > counted.version) listIndexOf(reads).outdated({ version });
    // Corrections decided on an older vocabulary than the page's: decided again on the current one.
    if (searchDataVersion <= vocabulary.version) return { ids, total };
    vocabulary = await vocabularies.atLeast(searchDataVersion);
  }
}

/**
 * The total kept with the vocabulary for a search of one token (refresh-search.ts), when the
 * search's count is exactly a kept token's: the token's own, or, for a misspelt token that starts
 * no word of the catalogue and has one correction, the correction's (`pabding` -> padding,
 * 265,172 icons). A single token never has a name-prefix part (plan.ts). The caller checks
 * that no filter applies.
 */
function oneTokenTotal(plan: SearchPlan, vocabulary: Vocabulary): Counted | undefined {
  const [token, ...more] = plan.tokens;
  if (token === undefined || more.length > 0 || plan.matchNamePrefix) return undefined;
  const corrections = plan.corrections[0] ?? [];
  if (corrections.length === 0) return vocabulary.totalOf(token);
  if (corrections.length > 1 || vocabulary.iconsStartingWith(token) > 0) return undefined;
  const kept = vocabulary.totalOf(corrections[0]!);
  // That the token matches nothing is the vocabulary's word; it holds at the version the total was
  // counted at only if both come from one refresh (an import committed between them otherwise).
  return kept?.version === vocabulary.version ? kept : undefined;
}

/**
 * The total counted by the list index, when the search's count is exactly `search @@
 * plan.matching.any` (searchCountSql; `query` is the same as terms, matchQueryOf): not when names
 * starting with the phrase also match.
 */
function indexedTotal(reads: Reads, plan: SearchPlan, query: MatchQuery, filter: IconFilter | undefined): Counted | undefined {
  if (plan.matchNamePrefix) return undefined;
  return listIndexOf(reads).searchTotal(query, filter);
}

/**
 * Name candidates (list-index/name-candidates.ts) beyond the page's rows: the shortest names
 * holding the word include some the segment leaves to those before it (names starting with the
 * phrase), ranks later (the word only starting a word of the name) or in another tier.
 */
const namedWanted = (needed: number) => 2 * needed + 16;
/** Beyond this many, the statement would spend on reading them what ranking the tier costs. */
const MOST_NAMED = 1_000;

/**
 * A phrase's segment of its matches is ranked tier by tier from its candidates from this many
 * matches, counted in memory: `words` when nothing is corrected, and otherwise `fixed_rest` (the
 * count is then mostly the corrections'; a misspelt word as typed matches little). Below, the larger
 * statement cost more than it saved (measured over the bench's phrases, one at a time: faster
 * above the bound, slower below a looser one).
 */
const PHRASE_TIERS_MIN_MATCHES = 2_000;

/**
 * The icons with the shortest names of each walked segment's tiers, and of a phrase's segment of
 * many matches (PHRASE_TIERS_MIN_MATCHES, of its `matches` with corrections), as the list index
 * finds them.
 */
function namedSegments(reads: Reads, plan: SearchPlan, query: MatchQuery, request: SearchRequest, matches: number | undefined): NamedSegments {
  const walks = walkedSegments(plan, request);
  const manyMatches = walks.phrase && matches !== undefined && matches >= PHRASE_TIERS_MIN_MATCHES;
  const phraseWords = manyMatches && plan.fixedPhrase === null;
  const phraseFixedRest = manyMatches && plan.fixedPhrase !== null;
  if (!walks.words && !walks.fixedRest && !phraseWords && !phraseFixedRest) return {};
  const wanted = namedWanted(offsetOf(request) + request.perPage);
  if (wanted > MOST_NAMED) return {};
  const asTyped = query.map((terms) => terms.slice(0, 1));
  const index = listIndexOf(reads);
  // A tier after one of more than MOST_NAMED icons is seldom reached (its rows are gated off), so
  // its candidates are looked for only after a complete tier: each tier's adds two CTEs to plan (a
  // full run of the bench's search misses lost 4 % when every tier's were, then read in full).
  const candidates = (query: MatchQuery): TierCandidates => {
    const name = index.nameCandidates(query, 'name', wanted, MOST_NAMED);
    const tagged = name?.complete ? index.nameCandidates(query, 'nameOrTags', wanted, MOST_NAMED) : undefined;
    const rest = tagged?.complete ? index.nameCandidates(query, 'any', wanted, MOST_NAMED) : undefined;
    return { name, tagged, rest };
  };
  return {
    words: walks.words || phraseWords ? candidates(asTyped) : undefined,
    fixedRest: walks.fixedRest || phraseFixedRest ? candidates(query) : undefined,
  };
}

/** plan.matching.any as terms: each token as typed (a prefix when long enough), or one of its corrections (prefixes). */
export function matchQueryOf(plan: SearchPlan): MatchQuery {
  return plan.tokens.map((token, index) => [
    { word: token, prefix: matchesAsPrefix(token) },
    ...plan.corrections[index]!.map((word) => ({ word, prefix: true })),
  ]);
}

const vocabularyOf = perReads(vocabularyHolder);

/**
 * Loads the search vocabulary now (the gateway's start), so that the first search does not wait
 * for it; a failed load is not kept, and the first search tries again.
 */
export async function preloadSearchVocabulary(reads: Reads): Promise<void> {
  await vocabularyOf(reads)
    .current()
    .catch(() => undefined);
}
