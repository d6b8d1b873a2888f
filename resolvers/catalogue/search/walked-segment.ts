// A ranked segment of a search page (build-query.ts) built without ranking every match: a
// common word matches a large part of the catalogue, and ranking all its matches is what costs.
//
// The segment is a handful of CTEs that together give the same rows as the plain segment:
//   <name>_walk    the first `rows` documents in the order of icon_search_documents_rank_idx
//                  (name length, popularity, id: the relevance order within a tier), ranked
//                  (none for a walk of no rows)
//   <name>_name    the name tier, ranked in full, through the name words' index
//   <name>_tagged  the second tier, ranked in full, through the index of the name's, keywords'
//                  and tags' words
//   <name>_rest    the last tier, ranked in full
// Rows outside the walk come after every walked row of their tier. So the walk's best rows are the
// segment's when it holds enough of the best class (the name tier, partial 0), and otherwise the
// walked rows of the other tiers are, after the name tier in full, when the walk holds enough of
// the second tier. When neither holds, <name>_tagged ranks the second tier, and <name>_rest the
// last only when the tiers before hold fewer rows than the page needs: most matches of a common
// word are in the category tier, which is then never ranked. A tier-3 row is in the name words'
// index because `simple` splits names at spaces (checked over the full catalogue: every word start
// of every name is a prefix of a name lexeme).
//
// With candidates (TierCandidates), <name>_name, <name>_tagged and <name>_rest rank them first
// (<name>_name_shortest...): the walk's rank index shows a tier's rows only as far as it walks, and
// a word's first name may be far down it. Every other icon of the tier has a longer name than all of
// them, so if as many of them are in the tier (with partial 0, in the name tier) as the segment
// needs, its best rows are theirs; and if they are the whole tier, they are it. They hold only at
// the catalogue version they were found at, which the statement checks. Otherwise the tier is
// ranked in full (<name>_name_all), as without them.
import { Prisma } from '../../../prisma/generated/client.ts';
import type { NamedIcons } from '../list-index/index.ts';
import { tier, type Tier } from './rank.ts';
import { countOf, rankedRows } from './sql-parts.ts';

/** When a one-word search's segment walks the documents in rank order, and how far. */
export interface WalkSettings {
  /** Matches (the plan's bound) from which a segment walks. */
  minMatches: number;
  /** Documents a walk reads per row the page needs, within [minRows, maxRows]. */
  rowsPerRowNeeded: number;
  minRows: number;
  maxRows: number;
}

export const WALK: WalkSettings = { minMatches: 10_000, rowsPerRowNeeded: 40, minRows: 500, maxRows: 20_000 };

/** Documents a walk reads for a page that needs `needed` rows. */
export const walkRowsFor = (needed: number, settings: WalkSettings) =>
  Math.min(settings.maxRows, Math.max(settings.minRows, needed * settings.rowsPerRowNeeded));

/**
 * A walked segment's candidates, when the list index found them: per tier, the icons with the
 * shortest names holding the word in a superset of the tier (the name; the name, keywords or tags;
 * the whole document).
 */
export interface TierCandidates {
  name?: NamedIcons | undefined;
  tagged?: NamedIcons | undefined;
  /** Of the last tier (the category's words): the shortest names of the whole segment. */
  rest?: NamedIcons | undefined;
}

/** A segment ranked by walking the documents. */
export interface Walk {
  /** Its tier and partial expressions, as for the plain segment. */
  rank: [Prisma.Sql, Prisma.Sql];
  /** What its rows meet: its match and `outside`. */
  condition: Prisma.Sql;
  /** What the segment leaves to the segments before it. */
  outside: Prisma.Sql;
  /** Its best tier, the name's words: the only one in which `partial` can be 0. */
  nameTier: Tier;
  /** Exactly the rows of that tier (among `condition`'s), through the name words' index. */
  inName: Prisma.Sql;
  /** The same rows' complement, without the index (to_tsvector per row would cost more than the ranking). */
  notInName: Prisma.Sql;
  /** Exactly the rows of `condition` in the next tier (the name's, keywords' or tags' words), through their index: `condition` with its match narrowed to those words. */
  tagged: Prisma.Sql;
  /** The rest: the last tier (the category's words). */
  untagged: Prisma.Sql;
  /** Documents the walk reads; 0 for none (a phrase's segment: no `_walk` CTE, its tiers from their candidates). */
  rows: number;
  /** Per tier, the icons with the shortest names holding the word in its scope, when known. */
  named: TierCandidates | undefined;
}

/** What every step of one walked segment shares. */
interface SegmentContext {
  name: string;
  walk: Walk;
  /** The segments before this one in the page. */
  before: string[];
  /** Rows the page needs (offset + perPage). */
  needed: number;
}

const DOCUMENTS = Prisma.sql`icon_search_documents i`;

const cteOf = ({ name }: SegmentContext, suffix: string) => Prisma.raw(`${name}${suffix}`);

/**
 * A CTE of the segment's best rows of `from`. Fenced: PostgreSQL would walk the rank index for
 * _name and _rest itself, unbounded (their order is the index's when the tier is one value).
 */
const ranked = (context: SegmentContext, suffix: string, from: Prisma.Sql, rank: [Prisma.Sql, Prisma.Sql], where: Prisma.Sql) =>
  rankedRows(`${context.name}${suffix}`, rank, from, where, context.needed, true);

/**
 * The two proofs the walk can give: it holds enough rows of the best class (walkedBest), or,
 * after the name tier in full, enough of the second tier (walkedRest). A walk of no rows (a
 * phrase's segment) proves nothing.
 */
function walkProofs(context: SegmentContext): { walkedBest: Prisma.Sql; walkedRest: Prisma.Sql } {
  const { walk, before, needed } = context;
  if (walk.rows === 0) return { walkedBest: Prisma.sql`FALSE`, walkedRest: Prisma.sql`FALSE` };
  const walked = cteOf(context, '_walk');
  return {
    walkedBest: Prisma.sql`(SELECT count(*) FROM ${walked} WHERE tier = ${tier(walk.nameTier)} AND partial = 0) >= ${needed} - (${countOf(before)})`,
    walkedRest: Prisma.sql`(SELECT count(*) FROM ${walked} WHERE tier = ${tier((walk.nameTier + 1) as Tier)}) >= ${needed} - (${countOf([...before, `${context.name}_name`])})`,
  };
}

/** The `_walk` CTE: the first documents in rank order that meet the segment's condition, ranked. */
function walkRows(context: SegmentContext): Prisma.Sql {
  const { walk, before, needed } = context;
  return ranked(
    context,
    '_walk',
    Prisma.sql`(SELECT * FROM icon_search_documents ORDER BY char_length(name), popularity DESC, id LIMIT ${walk.rows}) i`,
    walk.rank,
    Prisma.sql`${countOf(before)} < ${needed} AND ${walk.condition}`,
  );
}

/** One tier of the segment: which of its rows, what comes before it, its candidates, and which candidates count towards the proof. */
interface TierPart {
  suffix: string;
  rank: [Prisma.Sql, Prisma.Sql];
  rows: Prisma.Sql;
  before: string[];
  candidates: NamedIcons | undefined;
  proving: Prisma.Sql;
}

/** The CTE <name><suffix>: the best `needed` of a tier's rows, from the candidates first when there are any. */
function tierRows(context: SegmentContext, { suffix, rank, rows, before, candidates, proving }: TierPart): Prisma.Sql[] {
  if (!candidates) return [ranked(context, suffix, DOCUMENTS, rank, rows)];
  const current = Prisma.sql`(SELECT version FROM catalogue_state WHERE id = 1) = ${candidates.version}`;
  const proven = candidates.complete
    ? current
    : Prisma.sql`(${current} AND (SELECT count(*) FROM ${cteOf(context, `${suffix}_shortest`)} WHERE ${proving}) >= ${context.needed} - (${countOf(before)}))`;
  // The candidates' rows fenced: beside the primary key, PostgreSQL also read the word's entries of the documents' index, all of them.
  const shortest = Prisma.sql`(SELECT * FROM icon_search_documents WHERE id = ANY(${candidates.ids}::int[]) OFFSET 0) i`;
  return [
    ranked(context, `${suffix}_shortest`, shortest, rank, Prisma.sql`${current} AND ${rows}`),
    ranked(context, `${suffix}_all`, DOCUMENTS, rank, Prisma.sql`NOT ${proven} AND ${rows}`),
    Prisma.sql`${cteOf(context, suffix)} AS MATERIALIZED (SELECT * FROM ${cteOf(context, `${suffix}_shortest`)} WHERE ${proven} UNION ALL SELECT * FROM ${cteOf(context, `${suffix}_all`)})`,
  ];
}

/** The segment's three tiers, in rank order, each ranked only when the proofs and the tiers before leave it rows to give. */
function tierParts(context: SegmentContext, { walkedBest, walkedRest }: { walkedBest: Prisma.Sql; walkedRest: Prisma.Sql }): TierPart[] {
  const { name, walk, before, needed } = context;
  const [, partialOf] = walk.rank;
  const throughName = [...before, `${name}_name`];
  const throughTagged = [...throughName, `${name}_tagged`];
  return [
    // In the name tier, a candidate of the best class (partial 0) is before every row outside them,
    // and every candidate is when they hold every name with the typed word itself: partial 0 is the
    // word as a whole word of the name, which is then one of its lexemes (`simple` makes a lexeme of
    // every run of letters and digits between spaces: checked over the full catalogue, and by a
    // test on the demo catalogue).
    // Its rows are `inName` outside the segments before, without the segment's match: the name's
    // words are all in the document, and the query's terms are only ANDed and ORed, so a name that
    // matches means a document that does. Beside that second full-text condition, a plan made once
    // for every value ANDed both indexes' bitmaps, reading every entry of the word.
    {
      suffix: '_name',
      rank: [tier(walk.nameTier), partialOf],
      rows: Prisma.sql`${countOf(before)} < ${needed} AND NOT ${walkedBest} AND ${walk.outside} AND ${walk.inName}`,
      before,
      candidates: walk.named?.name,
      proving: walk.named?.name?.holdsWholeWords ? Prisma.sql`TRUE` : Prisma.sql`partial = 0`,
    },
    // In the next tiers every row has the same partial: 1 in `words` (a name holding the word as a
    // whole word is in the name tier), 0 in `fixed_rest`.
    {
      suffix: '_tagged',
      rank: [tier((walk.nameTier + 1) as Tier), partialOf],
      rows: Prisma.sql`${countOf(throughName)} < ${needed} AND NOT ${walkedBest} AND NOT ${walkedRest}
        AND ${walk.tagged} AND ${walk.notInName}`,
      before: throughName,
      candidates: walk.named?.tagged,
      proving: Prisma.sql`TRUE`,
    },
    {
      suffix: '_rest',
      rank: [tier((walk.nameTier + 2) as Tier), partialOf],
      rows: Prisma.sql`${countOf(throughTagged)} < ${needed} AND NOT ${walkedBest} AND NOT ${walkedRest}
        AND ${walk.condition} AND ${walk.notInName} AND ${walk.untagged}`,
      before: throughTagged,
      candidates: walk.named?.rest,
      proving: Prisma.sql`TRUE`,
    },
  ];
}

/** The segment's own CTE: the walk's rows where it proves them, then the tiers ranked in full. */
function segmentUnion(context: SegmentContext, { walkedBest, walkedRest }: { walkedBest: Prisma.Sql; walkedRest: Prisma.Sql }): Prisma.Sql {
  const [nameRows, taggedRows, restRows] = ['_name', '_tagged', '_rest'].map((suffix) => Prisma.sql`SELECT * FROM ${cteOf(context, suffix)}`) as [Prisma.Sql, Prisma.Sql, Prisma.Sql];
  const walked = cteOf(context, '_walk');
  const rows =
    context.walk.rows > 0
      ? [
          Prisma.sql`SELECT * FROM ${walked} WHERE ${walkedBest}`,
          nameRows,
          Prisma.sql`SELECT * FROM ${walked} WHERE NOT ${walkedBest} AND ${walkedRest} AND tier > ${tier(context.walk.nameTier)}`,
          taggedRows,
          restRows,
        ]
      : [nameRows, taggedRows, restRows];
  return Prisma.sql`${cteOf(context, '')} AS MATERIALIZED (${Prisma.join(rows, ' UNION ALL ')})`;
}

/** The CTEs of segment `name` ranked as described at the top of this file. */
export function walkedSegment(name: string, walk: Walk, before: string[], needed: number): Prisma.Sql[] {
  const context: SegmentContext = { name, walk, before, needed };
  const proofs = walkProofs(context);
  return [
    ...(walk.rows > 0 ? [walkRows(context)] : []),
    ...tierParts(context, proofs).flatMap((part) => tierRows(context, part)),
    segmentUnion(context, proofs),
  ];
}
