// The pieces every search statement is built from (build-query.ts, walked-segment.ts): the
// match conditions on `i`, the rows they are read from, and a segment's ranked CTE.
import { Prisma } from '../../../prisma/generated/client.ts';
import { filterCondition, isUnfiltered, type IconFilter } from '../filters.ts';
import type { SearchPlan } from './plan.ts';
import { RELEVANCE_ORDER } from './rank.ts';

/** `lower(i.name)` starts with `phrase`: a range of the pattern-ordered index (chr(1114111) is the last code point). */
const startsWith = (phrase: string | null) => Prisma.sql`(lower(i.name) ~>=~ ${phrase}::text AND lower(i.name) ~<~ (${phrase}::text || chr(1114111)))`;

/** The conditions on `i` (icons, or their search documents) that the parts and segments combine. */
export function conditions(plan: SearchPlan) {
  return {
    // Names starting with the phrase: lower(i.name) exactly as in icons_search_name_idx, as a range
    // of it. Not LIKE: PostgreSQL turns `LIKE 'prefix%'` into that range only when it plans for the
    // pattern's value, and a statement planned once for every value (planFitsEveryValue)
    // read the whole index instead.
    namePrefix: startsWith(plan.phrase),
    fixedPrefix: startsWith(plan.fixedPhrase),
    typed: Prisma.sql`i.search @@ ${plan.all.any}::tsquery`,
    matching: Prisma.sql`i.search @@ ${plan.matching.any}::tsquery`,
    // The name's own words, through icon_search_documents_name_words_idx (the same expression):
    // exactly the words of weight A in the document (the migration *_icon_search_documents_walk).
    typedInName: Prisma.sql`to_tsvector('simple', i.name) @@ ${plan.all.any}::tsquery`,
    matchingInName: Prisma.sql`to_tsvector('simple', i.name) @@ ${plan.matching.any}::tsquery`,
    // The words of the name, keywords and tags (weights A and B) alone, through
    // icon_search_documents_tagged_idx (the same expression; migration *_icon_search_documents_tagged):
    // exactly the rows `search @@ <the query with :AB>` matches (every lexeme of a document has
    // positions, each with its weight, and ts_filter keeps those of A and B), found without
    // rechecking every match. Alone in its condition: beside `search @@`, PostgreSQL ANDed both
    // indexes' bitmaps, reading every entry of the big one for a common word.
    typedTagged: Prisma.sql`ts_filter(i.search, '{a,b}') @@ ${plan.all.any}::tsquery`,
    matchingTagged: Prisma.sql`ts_filter(i.search, '{a,b}') @@ ${plan.matching.any}::tsquery`,
  };
}

/** Rows to read from (`i`) and the condition every row must also meet. */
export interface Source {
  from: Prisma.Sql;
  where: Prisma.Sql;
}

/**
 * Where a search reads: `icons`, and `documents` for the full-text matches, which is
 * icon_search_documents when no filter needs the icons' other columns (see the header).
 */
export function sources(filter: IconFilter | undefined): { icons: Source; documents: Source } {
  const icons = { from: Prisma.sql`icons i`, where: filterCondition(filter) };
  return { icons, documents: isUnfiltered(filter) ? { from: Prisma.sql`icon_search_documents i`, where: Prisma.sql`TRUE` } : icons };
}

/**
 * The matches as disjoint parts, each a condition one index answers (an OR of them would
 * leave the planner to guess, and with q's values unknown to it, it may scan the table):
 * the document matching q, then (with a short token) names starting with the phrase, then
 * names starting with the corrected phrase. Each part comes with the rows it is read from.
 */
export function matchParts(plan: SearchPlan, { icons, documents }: { icons: Source; documents: Source }): { from: Prisma.Sql; condition: Prisma.Sql }[] {
  const c = conditions(plan);
  const parts = [{ from: documents.from, condition: Prisma.sql`${c.matching} AND ${documents.where}` }];
  if (plan.matchNamePrefix) {
    parts.push({ from: icons.from, condition: Prisma.sql`${c.namePrefix} AND NOT (${c.matching}) AND ${icons.where}` });
    if (plan.fixedPhrase !== null) {
      parts.push({ from: icons.from, condition: Prisma.sql`${c.fixedPrefix} AND NOT ${c.namePrefix} AND NOT (${c.matching}) AND ${icons.where}` });
    }
  }
  return parts;
}

/** The sum of the named CTEs' row counts. */
export const countOf = (names: string[]) => Prisma.join(names.map((name) => Prisma.sql`(SELECT count(*) FROM ${Prisma.raw(name)})`), ' + ');

/**
 * A CTE of the best `needed` rows of `from` meeting `where`, by relevance (its count still tells
 * the next gate whether it had fewer than that). `fenced` keeps PostgreSQL from reading the rows
 * in the relevance order through an index, unbounded (walked-segment.ts).
 */
export function rankedRows(name: string, [tier, partial]: [Prisma.Sql, Prisma.Sql], from: Prisma.Sql, where: Prisma.Sql, needed: number, fenced = false): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(name)} AS MATERIALIZED (
      SELECT * FROM (SELECT i.id, i.name, i.popularity, ${tier} AS tier, ${partial} AS partial FROM ${from} WHERE ${where}${fenced ? Prisma.sql` OFFSET 0` : Prisma.empty}) s
      ORDER BY ${RELEVANCE_ORDER} LIMIT ${needed}
    )`;
}

