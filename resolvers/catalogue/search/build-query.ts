// Step 4 of a search: the two statements, a page of ids and the total, which searchIconIds
// runs side by side (as list-icons.ts does).
//
// An icon matches when its search document matches plan.matching (every token; a short token as a
// whole word, a longer one as a word prefix; a misspelt one through its corrections), or, for a
// phrase of 3+ characters with a short token, its lower-cased name starts with the phrase
// (`arrow l`) or with the corrected phrase. Index use: GIN icons_search_idx for the document,
// btree icons_search_name_idx for name prefixes (both partial, on published icons; BitmapOr).
//
// Ranking every match is what costs (fetch, tier and sort each row), and a common word matches a
// large part of the catalogue. So the relevance page is built from segments in tier order, each
// computed only when the ones before it hold fewer rows than the page needs (offset + perPage);
// the gate is an uncorrelated subquery, which PostgreSQL evaluates once and uses to skip the
// segment's scan altogether:
//   head        tiers 1-2   names starting with the phrase (a range of the name index)
//   words       tiers 3-5   the other icons matching the tokens as typed
//   fixed_head  tiers 6-7   names starting with the corrected phrase
//   fixed_rest  tiers 8-10  the other icons matching only with corrections
// `home`: "Home" and "Home ..." fill the first pages, and the thousands of other matches are never
// ranked. The name segments read only the name index (it includes name, popularity and id):
// an index-only scan, unless a filter needs the table. The total is a plain count.
//
// A full-text index cannot answer alone: PostgreSQL visits every matching row to recheck it.
// Without filters, the segments that rank full-text matches (words, fixed_rest) and the count
// read icon_search_documents, each published icon's id, name, popularity and document kept by
// triggers, instead of the wide icon rows (bodies, keywords...), a small fraction of their size
// (the figures: bench/results-comment-figures.md).
//
// A one-word search that the vocabulary says may match many icons ranks words and fixed_rest by
// walking the documents in rank order instead, with the name tier through an index of the names'
// words, and falls back to ranking every match when the walk cannot prove its page
// (walked-segment.ts). Several words' bound is loose (their AND is often far rarer than each), and
// their walks failed more than they paid. When the list index knows the shortest names holding
// the word (NamedIcons), the name tier ranks those first, and all of it only when they cannot prove
// their rows. A phrase of many matches ranks its words segment (or with corrections, fixed_rest)
// the same way, tier by tier from the shortest names holding every word, without a walk.
import { Prisma } from '../../../prisma/generated/client.ts';
import { isUnfiltered, offsetOf, SORT_ORDER, type IconFilter, type PageRequest, type SortKey } from '../filters.ts';
import { matchesAsPrefix } from './parse-query.ts';
import type { SearchPlan } from './plan.ts';
import {
  correctedPrefixTier,
  correctedTier,
  everyTokenInName,
  namePrefixTier,
  partialOfNamePrefix,
  partialOfWords,
  RELEVANCE_ORDER,
  TIERS,
  wordsTier,
} from './rank.ts';
import { conditions, countOf, matchParts, rankedRows, sources, type Source } from './sql-parts.ts';
import { WALK, walkedSegment, walkRowsFor, type TierCandidates, type Walk, type WalkSettings } from './walked-segment.ts';

export type { TierCandidates, WalkSettings } from './walked-segment.ts';

export interface SearchPageQuery extends PageRequest {
  filter?: IconFilter | undefined;
  /** null/undefined: relevance. */
  sort?: SortKey | null | undefined;
}

/**
 * Whether the segments of a one-word search that rank its matches, as typed (`words`) and with
 * corrections (`fixed_rest`), walk (walked-segment.ts). Not below `minMatches` even with candidates
 * (NamedSegments): walking words with fewer matches made such searches slower. `phrase`: a phrase's `words` and
 * `fixed_rest` segments can be ranked tier by tier from their candidates, without a walk (NamedSegments).
 */
export function walkedSegments(plan: SearchPlan, request: SearchPageQuery, walkSettings: WalkSettings = WALK): { words: boolean; fixedRest: boolean; phrase: boolean } {
  const ranksInTiers = !request.sort && isUnfiltered(request.filter);
  const walks = (matchBound: number) => ranksInTiers && plan.tokens.length === 1 && matchBound >= walkSettings.minMatches;
  return { words: walks(plan.matchBound.typed), fixedRest: plan.fixedPhrase !== null && walks(plan.matchBound.matching), phrase: ranksInTiers && plan.tokens.length > 1 };
}

/**
 * Per walked segment, its candidates. A phrase's segments do not walk (several words' walks
 * failed more than they paid); with its name tier's candidates, `words` or `fixed_rest` is ranked
 * tier by tier from them as a walked segment is (walkedSegment, with a walk of no rows).
 */
export interface NamedSegments {
  words?: TierCandidates | undefined;
  fixedRest?: TierCandidates | undefined;
}

interface PageOptions {
  walkSettings?: WalkSettings;
  named?: NamedSegments;
}

/** Rows `{ id }`: one page. */
export function searchPageSql(plan: SearchPlan, request: SearchPageQuery, options: PageOptions = {}): Prisma.Sql {
  return request.sort ? sortedPageSql(plan, request, request.sort) : relevancePageSql(plan, request, options);
}

/** A page in a sort order: every match, from the icons (a sort order needs columns only they have). */
function sortedPageSql(plan: SearchPlan, request: SearchPageQuery, sort: SortKey): Prisma.Sql {
  const { icons } = sources(request.filter);
  const matched = matchParts(plan, { icons, documents: icons }).map(
    ({ from, condition }) => Prisma.sql`SELECT i.id, i.name, i.popularity, i.published_at, i.downloads FROM ${from} WHERE ${condition}`,
  );
  return Prisma.sql`SELECT i.id FROM (${Prisma.join(matched, ' UNION ALL ')}) i
    ORDER BY ${SORT_ORDER[sort]}
    LIMIT ${request.perPage} OFFSET ${offsetOf(request)}`;
}

/** What building one relevance page's segments shares. */
interface RelevancePage {
  plan: SearchPlan;
  c: ReturnType<typeof conditions>;
  /** Where the name segments (`icons`) and the full-text ones (`documents`) read. */
  read: { icons: Source; documents: Source };
  /** Rows the page needs (offset + perPage); each segment keeps only its best that many. */
  needed: number;
  /** Documents a walked segment reads. */
  walkRows: number;
  walks: ReturnType<typeof walkedSegments>;
  named: NamedSegments;
}

/** A page by relevance: the segments in tier order, each gated on the ones before it. */
function relevancePageSql(plan: SearchPlan, request: SearchPageQuery, { walkSettings = WALK, named = {} }: PageOptions): Prisma.Sql {
  const needed = offsetOf(request) + request.perPage;
  const page: RelevancePage = {
    plan,
    c: conditions(plan),
    read: sources(request.filter),
    needed,
    walkRows: walkRowsFor(needed, walkSettings),
    walks: walkedSegments(plan, request, walkSettings),
    named,
  };
  const segments = [headSegment(page), ...wordsSegment(page)];
  const names = ['head', 'words'];
  if (plan.fixedPhrase !== null) {
    segments.push(fixedHeadSegment(page), ...fixedRestSegment(page));
    names.push('fixed_head', 'fixed_rest');
  }
  const ranked = Prisma.join(names.map((name) => Prisma.sql`SELECT * FROM ${Prisma.raw(name)}`), ' UNION ALL ');
  return Prisma.sql`WITH ${Prisma.join(segments, ', ')}
    SELECT s.id FROM (${ranked}) s
    ORDER BY ${RELEVANCE_ORDER}
    LIMIT ${request.perPage} OFFSET ${offsetOf(request)}`;
}

/** A segment ranked in full: the best `needed` rows of `read` meeting `condition`. */
const plainSegment = (page: RelevancePage, name: string, rank: [Prisma.Sql, Prisma.Sql], { from, where }: Source, condition: Prisma.Sql) =>
  rankedRows(name, rank, from, Prisma.sql`${condition} AND ${where}`, page.needed);

/** A segment that ranks full-text matches: walked when `walk` is given, otherwise ranked in full once the segments `before` leave it rows to give. */
function rankedSegment(page: RelevancePage, name: string, rank: [Prisma.Sql, Prisma.Sql], before: string[], condition: Prisma.Sql, walk: Omit<Walk, 'rank' | 'condition'> | null): Prisma.Sql[] {
  return walk
    ? walkedSegment(name, { ...walk, rank, condition }, before, page.needed)
    : [plainSegment(page, name, rank, page.read.documents, Prisma.sql`${countOf(before)} < ${page.needed} AND ${condition}`)];
}

/**
 * How a segment that ranks full-text matches is ranked: walked (`walks`), or, for a phrase whose
 * name tier has candidates, tier by tier from them (a walk of no rows); null to rank it in full.
 */
function walkOf(page: RelevancePage, walks: boolean, named: TierCandidates | undefined, tiers: Omit<Walk, 'rank' | 'condition' | 'rows' | 'named'>): Omit<Walk, 'rank' | 'condition'> | null {
  if (!walks && !(page.walks.phrase && named?.name)) return null;
  return { rows: walks ? page.walkRows : 0, named, ...tiers };
}

/** Tiers 1-2: names starting with the phrase. */
function headSegment(page: RelevancePage): Prisma.Sql {
  const { plan, c } = page;
  // A name starting with the phrase matches by itself, unless the phrase is too short for that
  // (`up`: "Upload" does not match, "Up Arrow" does).
  const headMatches = plan.matchNamePrefix || plan.tokens.every(matchesAsPrefix) ? Prisma.sql`TRUE` : c.typed;
  return plainSegment(page, 'head', [namePrefixTier(plan), partialOfNamePrefix(plan)], page.read.icons, Prisma.sql`${c.namePrefix} AND ${headMatches}`);
}

/** Tiers 3-5: the other icons matching the tokens as typed. */
function wordsSegment(page: RelevancePage): Prisma.Sql[] {
  const { plan, c, walks, named } = page;
  // What the segment leaves to the head, beside its match.
  const outside = Prisma.sql`NOT ${c.namePrefix}`;
  const walk = walkOf(page, walks.words, named.words, {
    nameTier: TIERS.wordsInName,
    outside,
    inName: Prisma.sql`${c.typedInName} AND ${everyTokenInName(plan)}`,
    notInName: Prisma.sql`NOT ${everyTokenInName(plan)}`,
    tagged: Prisma.sql`${c.typedTagged} AND ${outside}`,
    untagged: Prisma.sql`NOT i.search @@ ${plan.all.nameOrTags}::tsquery`,
  });
  return rankedSegment(page, 'words', [wordsTier(plan), partialOfWords(plan)], ['head'], Prisma.sql`${c.typed} AND ${outside}`, walk);
}

/** Tiers 6-7: names starting with the corrected phrase. */
function fixedHeadSegment(page: RelevancePage): Prisma.Sql {
  const { plan, c, needed } = page;
  return plainSegment(
    page,
    'fixed_head',
    [correctedPrefixTier(plan), Prisma.sql`0`],
    page.read.icons,
    Prisma.sql`${countOf(['head', 'words'])} < ${needed}
      AND ${c.fixedPrefix} AND NOT ${c.namePrefix} AND i.id NOT IN (SELECT id FROM words)`,
  );
}

/** Tiers 8-10: the other icons matching only with corrections. */
function fixedRestSegment(page: RelevancePage): Prisma.Sql[] {
  const { plan, c, walks, named } = page;
  // What the segment leaves to the segments before it, beside its match.
  const outside = Prisma.sql`NOT ${c.typed} AND NOT ${c.namePrefix} AND NOT ${c.fixedPrefix}`;
  const walk = walkOf(page, walks.fixedRest, named.fixedRest, {
    nameTier: TIERS.correctedInName,
    outside,
    inName: c.matchingInName,
    notInName: Prisma.sql`NOT i.search @@ ${plan.matching.name}::tsquery`,
    tagged: Prisma.sql`${c.matchingTagged} AND ${outside}`,
    untagged: Prisma.sql`NOT i.search @@ ${plan.matching.nameOrTags}::tsquery`,
  });
  return rankedSegment(page, 'fixed_rest', [correctedTier(plan), Prisma.sql`0`], ['head', 'words', 'fixed_head'], Prisma.sql`${c.matching} AND ${outside}`, walk);
}

/**
 * Whether one plan of the page statement (and of its count) fits every value it can be given, so
 * that it is planned once (prisma/reads.ts, ReadOptions.genericPlan): relevance order without
 * filters. Each of its segments then reads one index (a range of the names, a GIN index, the walk's
 * rank index) and sorts what it matched, whatever the values, so the generic plan runs as fast as
 * one made for the values and saves planning each statement (walked pages and pages with
 * candidates most: their statements are the costliest to plan).
 * A sort order or a filter is planned for its values: their plans depend on how many rows match.
 */
export function planFitsEveryValue(request: SearchPageQuery): boolean {
  return !request.sort && isUnfiltered(request.filter);
}

/**
 * One row `{ total }`: the sum of the parts' counts (they are disjoint). Without filters the
 * documents' part is counted on icon_search_documents (see the header).
 */
export function searchCountSql(plan: SearchPlan, filter: IconFilter | undefined): Prisma.Sql {
  const counts = matchParts(plan, sources(filter)).map(({ from, condition }) => Prisma.sql`(SELECT count(*) FROM ${from} WHERE ${condition})`);
  return Prisma.sql`SELECT (${Prisma.join(counts, ' + ')})::integer AS total`;
}
