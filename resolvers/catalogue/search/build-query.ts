// Step 4 of a search: the two statements, a page of ids and the total, which searchIconIds
// runs side by side (as list-icons.ts does).
//
// An icon matches when its search document matches plan.matching (every token; a short token as a
// whole word, a longer one as a word prefix; a misspelt one through its corrections), or, for a
// phrase of 3+ characters with a short token, its lower-cased name starts with the phrase
// (`arrow l`) or with the corrected phrase. Index use: GIN icons_search_idx for the document,
// btree icons_search_name_idx for name prefixes (both partial, on published icons; BitmapOr).
//
// Ranking every match is what costs (about 2 µs an icon: fetch, tier, sort), and a common word
// matches 10,000 icons of the full catalogue. So the relevance page is built from segments in
// tier order, each computed only when the ones before it hold fewer rows than the page needs
// (offset + perPage); the gate is an uncorrelated subquery, which PostgreSQL evaluates once and
// uses to skip the segment's scan altogether:
//   head        tiers 1-2   names starting with the phrase (a range of the name index)
//   words       tiers 3-5   the other icons matching the tokens as typed
//   fixed_head  tiers 6-7   names starting with the corrected phrase
//   fixed_rest  tiers 8-10  the other icons matching only with corrections
// `home`: "Home" and "Home ..." fill the first pages, and the 3,800 other matches are never
// ranked. The name segments read only the name index (it includes name, popularity and id):
// an index-only scan, unless a filter needs the table. The total is a plain count.
//
// A full-text index cannot answer alone: PostgreSQL visits every matching row to recheck it.
// Without filters, the segments that rank full-text matches (words, fixed_rest) and the count
// read icon_search_documents, each published icon's id, name, popularity and document kept by
// triggers, instead of the wide icon rows (bodies, keywords...: about 1 GB on the full
// catalogue, 80 MB for the documents). `uses` matches 111,351 icons: counting them took 300 ms
// on icons, 21 on the documents; ranking them took 540 ms on icons (bench/RESULTS.md).
//
// A one-word search that the vocabulary says may match 10,000+ icons ranks words and
// fixed_rest by walking the documents in rank order instead, with the name tier through an
// index of the names' words, and falls back to ranking every match when the walk cannot
// prove its page (walkedSegment). Several words' bound is loose (their AND is often far
// rarer than each), and their walks failed more than they paid: `bold duotone` 22 -> 30 ms.
// When the list index knows the shortest names holding the word (NamedIcons), the name tier
// ranks those first, and all of it only when they cannot prove their rows. A phrase of many
// matches ranks its words segment (or with corrections, fixed_rest) the same way, tier by tier
// from the shortest names holding every word, without a walk: `shapes filled` (14,722 matches)
// 33 -> 1.4 ms.
import { Prisma } from '../../../prisma/generated/client.ts';
import type { NamedIcons } from '../list-index/index.ts';
import { filterCondition, isUnfiltered, offsetOf, SORT_ORDER, type IconFilter, type PageRequest, type SortKey } from '../filters.ts';
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
  tier,
  TIERS,
  wordsTier,
  type Tier,
} from './rank.ts';

export interface SearchPageQuery extends PageRequest {
  filter?: IconFilter | undefined;
  /** null/undefined: relevance. */
  sort?: SortKey | null | undefined;
}

/** `lower(i.name)` starts with `phrase`: a range of the pattern-ordered index (chr(1114111) is the last code point). */
const startsWith = (phrase: string | null) => Prisma.sql`(lower(i.name) ~>=~ ${phrase}::text AND lower(i.name) ~<~ (${phrase}::text || chr(1114111)))`;

/** The conditions on `i` (icons, or their search documents) that the parts and segments combine. */
function conditions(plan: SearchPlan) {
  return {
    // Names starting with the phrase: lower(i.name) exactly as in icons_search_name_idx, as a range
    // of it. Not LIKE: PostgreSQL turns `LIKE 'prefix%'` into that range only when it plans for the
    // pattern's value, and a statement planned once for every value (planFitsEveryValue)
    // read the whole index instead, 435 ms where the range takes 0.2.
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
    // indexes' bitmaps, reading the big one's 59,512 entries for `logos` (15 of 42 ms).
    typedTagged: Prisma.sql`ts_filter(i.search, '{a,b}') @@ ${plan.all.any}::tsquery`,
    matchingTagged: Prisma.sql`ts_filter(i.search, '{a,b}') @@ ${plan.matching.any}::tsquery`,
  };
}

/** Rows to read from (`i`) and the condition every row must also meet. */
interface Source {
  from: Prisma.Sql;
  where: Prisma.Sql;
}

/**
 * Where a search reads: `icons`, and `documents` for the full-text matches, which is
 * icon_search_documents when no filter needs the icons' other columns (see the header).
 */
function sources(filter: IconFilter | undefined): { icons: Source; documents: Source } {
  const icons = { from: Prisma.sql`icons i`, where: filterCondition(filter) };
  return { icons, documents: isUnfiltered(filter) ? { from: Prisma.sql`icon_search_documents i`, where: Prisma.sql`TRUE` } : icons };
}

/**
 * The matches as disjoint parts, each a condition one index answers (an OR of them would
 * leave the planner to guess, and with q's values unknown to it, it may scan the table):
 * the document matching q, then (with a short token) names starting with the phrase, then
 * names starting with the corrected phrase. Each part comes with the rows it is read from.
 */
function matchParts(plan: SearchPlan, { icons, documents }: { icons: Source; documents: Source }): { from: Prisma.Sql; condition: Prisma.Sql }[] {
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
const countOf = (names: string[]) => Prisma.join(names.map((name) => Prisma.sql`(SELECT count(*) FROM ${Prisma.raw(name)})`), ' + ');

/**
 * A CTE of the best `needed` rows of `from` meeting `where`, by relevance (its count still tells
 * the next gate whether it had fewer than that). `fenced` keeps PostgreSQL from reading the rows
 * in the relevance order through an index, unbounded (walkedSegment).
 */
function rankedRows(name: string, [tier, partial]: [Prisma.Sql, Prisma.Sql], from: Prisma.Sql, where: Prisma.Sql, needed: number, fenced = false): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(name)} AS MATERIALIZED (
      SELECT * FROM (SELECT i.id, i.name, i.popularity, ${tier} AS tier, ${partial} AS partial FROM ${from} WHERE ${where}${fenced ? Prisma.sql` OFFSET 0` : Prisma.empty}) s
      ORDER BY ${RELEVANCE_ORDER} LIMIT ${needed}
    )`;
}

/**
 * Whether the segments of a one-word search that rank its matches, as typed (`words`) and with
 * corrections (`fixed_rest`), walk (walkedSegment). Not below `minMatches` even with candidates
 * (NamedSegments): walking words with fewer matches made such searches slower. `phrase`: a phrase's `words` and
 * `fixed_rest` segments can be ranked tier by tier from their candidates, without a walk (NamedSegments).
 */
export function walkedSegments(plan: SearchPlan, request: SearchPageQuery, walkSettings: WalkSettings = WALK): { words: boolean; fixedRest: boolean; phrase: boolean } {
  const ranksInTiers = !request.sort && isUnfiltered(request.filter);
  const walks = (matchBound: number) => ranksInTiers && plan.tokens.length === 1 && matchBound >= walkSettings.minMatches;
  return { words: walks(plan.matchBound.typed), fixedRest: plan.fixedPhrase !== null && walks(plan.matchBound.matching), phrase: ranksInTiers && plan.tokens.length > 1 };
}

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

/**
 * Per walked segment, its candidates. A phrase's segments do not walk (several words' walks
 * failed more than they paid); with its name tier's candidates, `words` or `fixed_rest` is ranked
 * tier by tier from them as a walked segment is (walkedSegment, with a walk of no rows).
 */
export interface NamedSegments {
  words?: TierCandidates | undefined;
  fixedRest?: TierCandidates | undefined;
}

/** Rows `{ id }`: one page. */
export function searchPageSql(plan: SearchPlan, request: SearchPageQuery, { walkSettings = WALK, named = {} }: { walkSettings?: WalkSettings; named?: NamedSegments } = {}): Prisma.Sql {
  if (request.sort) {
    // A sort order needs columns only the icons have.
    const { icons } = sources(request.filter);
    const matched = matchParts(plan, { icons, documents: icons }).map(
      ({ from, condition }) => Prisma.sql`SELECT i.id, i.name, i.popularity, i.published_at, i.downloads FROM ${from} WHERE ${condition}`,
    );
    return Prisma.sql`SELECT i.id FROM (${Prisma.join(matched, ' UNION ALL ')}) i
      ORDER BY ${SORT_ORDER[request.sort]}
      LIMIT ${request.perPage} OFFSET ${offsetOf(request)}`;
  }
  const needed = offsetOf(request) + request.perPage;
  const c = conditions(plan);
  // The segments that rank full-text matches read `documents`.
  const { icons, documents } = sources(request.filter);
  // Each segment keeps only its best `needed` rows.
  const segment = (name: string, rank: [Prisma.Sql, Prisma.Sql], { from, where }: Source, condition: Prisma.Sql) =>
    rankedRows(name, rank, from, Prisma.sql`${condition} AND ${where}`, needed);
  // A name starting with the phrase matches by itself, unless the phrase is too short for that
  // (`up`: "Upload" does not match, "Up Arrow" does).
  const headMatches = plan.matchNamePrefix || plan.tokens.every(matchesAsPrefix) ? Prisma.sql`TRUE` : c.typed;
  // Without filters, a segment of many matches walks the documents in rank order instead (see walkedSegment).
  const walkRows = Math.min(walkSettings.maxRows, Math.max(walkSettings.minRows, needed * walkSettings.rowsPerRowNeeded));
  const walks = walkedSegments(plan, request, walkSettings);
  const rankedSegment = (name: string, rank: [Prisma.Sql, Prisma.Sql], before: string[], condition: Prisma.Sql, walk: Omit<Walk, 'rank' | 'condition'> | null) =>
    walk
      ? walkedSegment(name, { ...walk, rank, condition }, before, needed)
      : [segment(name, rank, documents, Prisma.sql`${countOf(before)} < ${needed} AND ${condition}`)];
  // What the words and fixed_rest segments leave to the segments before them, beside their match.
  const wordsOutside = Prisma.sql`NOT ${c.namePrefix}`;
  const fixedRestOutside = Prisma.sql`NOT ${c.typed} AND NOT ${c.namePrefix} AND NOT ${c.fixedPrefix}`;
  const segments = [
    segment('head', [namePrefixTier(plan), partialOfNamePrefix(plan)], icons, Prisma.sql`${c.namePrefix} AND ${headMatches}`),
    ...rankedSegment(
      'words',
      [wordsTier(plan), partialOfWords(plan)],
      ['head'],
      Prisma.sql`${c.typed} AND ${wordsOutside}`,
      walks.words || (walks.phrase && named.words?.name) ? {
            rows: walks.words ? walkRows : 0,
            named: named.words,
            nameTier: TIERS.wordsInName,
            outside: wordsOutside,
            inName: Prisma.sql`${c.typedInName} AND ${everyTokenInName(plan)}`,
            notInName: Prisma.sql`NOT ${everyTokenInName(plan)}`,
            tagged: Prisma.sql`${c.typedTagged} AND ${wordsOutside}`,
            untagged: Prisma.sql`NOT i.search @@ ${plan.all.nameOrTags}::tsquery`,
          } : null,
    ),
  ];
  const names = ['head', 'words'];
  if (plan.fixedPhrase !== null) {
    segments.push(
      segment(
        'fixed_head',
        [correctedPrefixTier(plan), Prisma.sql`0`],
        icons,
        Prisma.sql`${countOf(['head', 'words'])} < ${needed}
          AND ${c.fixedPrefix} AND NOT ${c.namePrefix} AND i.id NOT IN (SELECT id FROM words)`,
      ),
      ...rankedSegment(
        'fixed_rest',
        [correctedTier(plan), Prisma.sql`0`],
        ['head', 'words', 'fixed_head'],
        Prisma.sql`${c.matching} AND ${fixedRestOutside}`,
        walks.fixedRest || (walks.phrase && named.fixedRest?.name)
          ? {
              rows: walks.fixedRest ? walkRows : 0,
              named: named.fixedRest,
              nameTier: TIERS.correctedInName,
              outside: fixedRestOutside,
              inName: c.matchingInName,
              notInName: Prisma.sql`NOT i.search @@ ${plan.matching.name}::tsquery`,
              tagged: Prisma.sql`${c.matchingTagged} AND ${fixedRestOutside}`,
              untagged: Prisma.sql`NOT i.search @@ ${plan.matching.nameOrTags}::tsquery`,
            }
          : null,
      ),
    );
    names.push('fixed_head', 'fixed_rest');
  }
  const ranked = Prisma.join(names.map((name) => Prisma.sql`SELECT * FROM ${Prisma.raw(name)}`), ' UNION ALL ');
  return Prisma.sql`WITH ${Prisma.join(segments, ', ')}
    SELECT s.id FROM (${ranked}) s
    ORDER BY ${RELEVANCE_ORDER}
    LIMIT ${request.perPage} OFFSET ${offsetOf(request)}`;
}

/** When a one-word search's segment walks the documents in rank order, and how far (walkedSegment). */
export interface WalkSettings {
  /** Matches (the plan's bound) from which a segment walks. */
  minMatches: number;
  /** Documents a walk reads per row the page needs, within [minRows, maxRows]. */
  rowsPerRowNeeded: number;
  minRows: number;
  maxRows: number;
}

const WALK: WalkSettings = { minMatches: 10_000, rowsPerRowNeeded: 40, minRows: 500, maxRows: 20_000 };

/** A segment ranked by walking the documents (walkedSegment). */
interface Walk {
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
  /** Per tier, the icons with the shortest names holding the word in its scope (TierCandidates), when known. */
  named: TierCandidates | undefined;
}

/**
 * A ranked segment as five CTEs that together give the same rows as the plain segment, without
 * ranking every match: `uses` matches 111,351 icons, and ranking them all took 130 ms.
 *   <name>_walk    the first `rows` documents in the order of icon_search_documents_rank_idx
 *                  (name length, popularity, id: the relevance order within a tier), ranked
 *                  (none for a walk of no rows)
 *   <name>_name    the name tier, ranked in full, through the name words' index
 *   <name>_tagged  the second tier, ranked in full, through the index of the name's, keywords'
 *                  and tags' words
 *   <name>_rest    the last tier, ranked in full
 * Rows outside the walk come after every walked row of their tier. So the walk's best rows are the
 * segment's when it holds enough of the best class (the name tier, partial 0), and otherwise the
 * walked rows of the other tiers are, after the name tier in full, when the walk holds enough of
 * the second tier. When neither holds, <name>_tagged ranks the second tier, and <name>_rest the
 * last only when the tiers before hold fewer rows than the page needs: `logos` matches 49,085
 * icons, only 3,385 of them outside the category tier, and ranking all took 60 ms. A tier-3 row is
 * in the name words' index because `simple` splits names at spaces (checked over the full
 * catalogue: every word start of every name is a prefix of a name lexeme).
 *
 * With `named`, <name>_name, <name>_tagged and <name>_rest rank their candidates first
 * (<name>_name_shortest...: the walk's rank index shows a tier's rows only as far as it walks, and
 * `duotone`'s first name is the 11,614th document). Every other icon of the tier has a longer name than all of them, so if as
 * many of them are in the tier (with partial 0, in the name tier) as the segment needs, its best
 * rows are theirs; and if they are the whole tier, they are it. They hold only at the catalogue
 * version they were found at, which the statement checks. Otherwise the tier is ranked in full
 * (<name>_name_all), as without them.
 */
function walkedSegment(name: string, walk: Walk, before: string[], needed: number): Prisma.Sql[] {
  const [, partialOf] = walk.rank;
  const cte = (suffix: string) => Prisma.raw(`${name}${suffix}`);
  const nameTier = tier(walk.nameTier);
  // Fenced: PostgreSQL would walk the rank index for _name and _rest itself, unbounded (their
  // order is the index's when the tier is one value): `doutone` walked 98 ms to find 24 names.
  const ranked = (suffix: string, from: Prisma.Sql, rank: [Prisma.Sql, Prisma.Sql], where: Prisma.Sql) => rankedRows(`${name}${suffix}`, rank, from, where, needed, true);
  // A walk of no rows (a phrase's segment) proves nothing: the tiers are ranked, from their candidates.
  const walks = walk.rows > 0;
  const walkedBest = walks
    ? Prisma.sql`(SELECT count(*) FROM ${cte('_walk')} WHERE tier = ${nameTier} AND partial = 0) >= ${needed} - (${countOf(before)})`
    : Prisma.sql`FALSE`;
  const walkedRest = walks
    ? Prisma.sql`(SELECT count(*) FROM ${cte('_walk')} WHERE tier = ${tier((walk.nameTier + 1) as Tier)}) >= ${needed} - (${countOf([...before, `${name}_name`])})`
    : Prisma.sql`FALSE`;
  const documents = Prisma.sql`icon_search_documents i`;
  /**
   * The CTE <name><suffix>: the best `needed` of a tier's rows, from the candidates first when
   * there are any (see above); `proving` says which of their rows count towards the proof.
   */
  const tierRows = (suffix: string, rank: [Prisma.Sql, Prisma.Sql], rows: Prisma.Sql, before: string[], candidates: NamedIcons | undefined, proving: Prisma.Sql) => {
    if (!candidates) return [ranked(suffix, documents, rank, rows)];
    const current = Prisma.sql`(SELECT version FROM catalogue_state WHERE id = 1) = ${candidates.version}`;
    const proven = candidates.complete
      ? current
      : Prisma.sql`(${current} AND (SELECT count(*) FROM ${cte(`${suffix}_shortest`)} WHERE ${proving}) >= ${needed} - (${countOf(before)}))`;
    return [
      // Fenced: beside the primary key, PostgreSQL also read the word's entries of the documents' index, all of them.
      ranked(`${suffix}_shortest`, Prisma.sql`(SELECT * FROM icon_search_documents WHERE id = ANY(${candidates.ids}::int[]) OFFSET 0) i`, rank, Prisma.sql`${current} AND ${rows}`),
      ranked(`${suffix}_all`, documents, rank, Prisma.sql`NOT ${proven} AND ${rows}`),
      Prisma.sql`${cte(suffix)} AS MATERIALIZED (SELECT * FROM ${cte(`${suffix}_shortest`)} WHERE ${proven} UNION ALL SELECT * FROM ${cte(`${suffix}_all`)})`,
    ];
  };
  const [nameRows, taggedRows, restRows] = ['_name', '_tagged', '_rest'].map((suffix) => Prisma.sql`SELECT * FROM ${cte(suffix)}`);
  const rows = walks
    ? [
        Prisma.sql`SELECT * FROM ${cte('_walk')} WHERE ${walkedBest}`,
        nameRows!,
        Prisma.sql`SELECT * FROM ${cte('_walk')} WHERE NOT ${walkedBest} AND ${walkedRest} AND tier > ${nameTier}`,
        taggedRows!,
        restRows!,
      ]
    : [nameRows!, taggedRows!, restRows!];
  return [
    ...(walks ? [
          ranked(
            '_walk',
            Prisma.sql`(SELECT * FROM icon_search_documents ORDER BY char_length(name), popularity DESC, id LIMIT ${walk.rows}) i`,
            walk.rank,
            Prisma.sql`${countOf(before)} < ${needed} AND ${walk.condition}`,
          ),
        ] : []),
    // In the name tier, a candidate of the best class (partial 0) is before every row outside them,
    // and every candidate is when they hold every name with the typed word itself: partial 0 is the
    // word as a whole word of the name, which is then one of its lexemes (`simple` makes a lexeme of
    // every run of letters and digits between spaces: checked over the full catalogue's 1,022,499
    // such runs, and by a test on the demo catalogue's).
    // Its rows are `inName` outside the segments before, without the segment's match: the name's
    // words are all in the document, and the query's terms are only ANDed and ORed, so a name that
    // matches means a document that does. Beside that second full-text condition, a plan made once
    // for every value ANDed both indexes' bitmaps (`icon`, page 10 of 100 a page: 30 of 100 ms
    // reading the documents' index's 193,939 entries for the word).
    ...tierRows(
      '_name',
      [nameTier, partialOf],
      Prisma.sql`${countOf(before)} < ${needed} AND NOT ${walkedBest} AND ${walk.outside} AND ${walk.inName}`,
      before,
      walk.named?.name,
      walk.named?.name?.holdsWholeWords ? Prisma.sql`TRUE` : Prisma.sql`partial = 0`,
    ),
    // In the next tiers every row has the same partial: 1 in `words` (a name holding the word as a
    // whole word is in the name tier), 0 in `fixed_rest`.
    ...tierRows(
      '_tagged',
      [tier((walk.nameTier + 1) as Tier), partialOf],
      Prisma.sql`${countOf([...before, `${name}_name`])} < ${needed} AND NOT ${walkedBest} AND NOT ${walkedRest}
        AND ${walk.tagged} AND ${walk.notInName}`,
      [...before, `${name}_name`],
      walk.named?.tagged,
      Prisma.sql`TRUE`,
    ),
    ...tierRows(
      '_rest',
      [tier((walk.nameTier + 2) as Tier), partialOf],
      Prisma.sql`${countOf([...before, `${name}_name`, `${name}_tagged`])} < ${needed} AND NOT ${walkedBest} AND NOT ${walkedRest}
        AND ${walk.condition} AND ${walk.notInName} AND ${walk.untagged}`,
      [...before, `${name}_name`, `${name}_tagged`],
      walk.named?.rest,
      Prisma.sql`TRUE`,
    ),
    Prisma.sql`${cte('')} AS MATERIALIZED (${Prisma.join(rows, ' UNION ALL ')})`,
  ];
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
