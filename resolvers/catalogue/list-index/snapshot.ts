// The list index's data (index.ts): the published icons at one catalogue version, and the
// orders of `popular` and `downloads` at one order version, read in a few statements that each
// report the versions they read at (readSnapshot), and held in typed arrays.
//
// Positions: the published icons numbered in id order. Every per-icon array is indexed by
// position. A sort order is the list of positions in that order, computed by PostgreSQL with the
// ORDER BY of the list statements (filters.ts), collation included; its ranks are the inverse.
// Each filter value (a category, set, style, colour or tag) has the list of positions it
// selects, in no order, and per-icon codes answer "does this icon have it" for the others.
// Each word of the search documents (a lexeme of icon_search_documents.search) has the
// positions whose document holds it, so that a search's total is counted here (search-totals.ts),
// those whose name holds it first, then those whose keywords or tags do, each run in the order of
// the names' lengths, and each position has its name's length, so that a search (a word, or every
// word of a phrase) finds here the few shortest names each of its tiers can start with
// (name-candidates.ts).
//
// Put together in the background while requests are served, in short steps of the thread: in
// one piece it held the thread long enough that every request waited meanwhile.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Prisma } from '../../../prisma/generated/client.ts';
import type { Reads } from '../../../prisma/reads.ts';
import { SORT_KEYS, sortOrderTerms, type SortKey } from '../filters.ts';

/** The versions of `catalogue_state` a snapshot, or a page's rows, was read at. */
export interface CatalogueVersions {
  version: number;
  orderVersion: number;
}

/** A filter's values: each value's positions, and each position's value as a code (the value's index). */
export interface Grouped {
  positions: Map<string, Int32Array>;
  codes: Map<string, number>;
}

/** Each position's value of one filter, as the value's index (two bytes each while they fit). */
export type Codes = Uint16Array | Int32Array;

/** `orderVersion` is the version of the orders of `popular` and `downloads` (ORDER_PART). */
export interface Snapshot extends CatalogueVersions {
  /** The icon id at each position. */
  ids: Int32Array;
  /** Positions in each sort order. */
  orders: Record<SortKey, Int32Array>;
  /** Each position's rank in each sort order. */
  ranks: Record<SortKey, Int32Array>;
  categories: Grouped;
  sets: Grouped;
  styles: Grouped;
  colors: Grouped;
  /** Tags have positions only (an icon has several). */
  tags: Map<string, Int32Array>;
  categoryOf: Codes;
  setOf: Codes;
  styleOf: Codes;
  /** A bit per colour code; colours past the 32nd have none. */
  colorsOf: Uint32Array;
  premiumOf: Uint8Array;
  premium: Int32Array;
  /** Undefined when a search document is not a published icon's (the index then counts no search). */
  words: SearchWords | undefined;
}

/**
 * The search documents' words in code-unit order (so that the words a prefix starts are
 * adjacent); word k's positions are `positions[starts[k]]` up to `positions[starts[k + 1]]`,
 * those whose name holds the word (weight A in the document) before `nameEnds[k]`, then those
 * whose keywords or tags do (weight B) before `tagEnds[k]`. Each of these three runs is in the
 * order of the names' lengths (nameLengths), shortest first (name-candidates.ts).
 * A few arrays, not one per word: 36,108 typed arrays more on the heap slowed every garbage
 * collection, and with it every kind of request (single icons 0.89x).
 */
export interface SearchWords {
  words: string[];
  starts: Int32Array;
  nameEnds: Int32Array;
  tagEnds: Int32Array;
  positions: Int32Array;
  /** Each position's `char_length(name)`, MAX_NAME_LENGTH for any longer. */
  nameLengths: Uint8Array;
}

export const MAX_NAME_LENGTH = 255;

/** Colours with a bit in `colorsOf`; a catalogue with more leaves colour filters to SQL. */
export const COLOR_BITS = 32;

// Icon ids travel as big-endian int4s (int4send) in base64 text, which decodes in a few
// milliseconds where a 380,909-element int[] text takes pg's array parser far longer; base64, not
// bytea's hex, because a part is one row held in memory at once. Every list is of icon ids, made
// positions here (toSnapshot): numbering the icons in SQL (row_number() over a materialized copy
// of the published icons, which every part that needed positions computed again) was a scan of
// the wide icon rows and a sort on disk, 1 to 2 s of each such part on the full catalogue.
const base64 = (bytes: string) => `encode(${bytes}, 'base64')`;
// A sort order is read from its sorted subquery, which PostgreSQL walks in its list statements'
// index (an index-only scan, no sort); the aggregate keeps its input's order when nothing but
// the aggregate is above it (PostgreSQL's documentation on aggregate expressions). An ORDER BY
// inside string_agg would sort again, as PostgreSQL 15 does for ordered aggregates: az 870 ms
// against 445.
const ordered = (order: string) =>
  Prisma.raw(`(SELECT ${base64("string_agg(int4send(id), ''::bytea)")} FROM (SELECT id FROM icons WHERE published ORDER BY ${order}) o)`);
// A value's ids in no order: hashed, not sorted (a style's in order took 350 ms, 55 ms so).
const grouped = (name: string, value: string, from: string, id = 'i.id') =>
  Prisma.raw(`${name} AS (SELECT ${value} AS value, count(*)::int AS size, string_agg(int4send(${id}), ''::bytea) AS ids FROM ${from} GROUP BY 1)`);
const groupColumns = (name: string) => {
  // A word's lists in the order of their zones (word groups have one).
  const [order, zones] = isWordPart(name) ? ['value, zone', `, 'zones', array_agg(zone ORDER BY value, zone)`] : ['value', ''];
  return Prisma.raw(`(SELECT json_build_object('values', array_agg(value ORDER BY ${order}), 'sizes', array_agg(size ORDER BY ${order})${zones}) FROM ${name}) AS ${name},
    (SELECT ${base64(`string_agg(ids, ''::bytea ORDER BY ${order})`)} FROM ${name}) AS ${name}_ids`);
};

// The search documents' words are read in parts, each the documents of one remainder of the id:
// all at once, the grouping outgrew PostgreSQL's work memory and took 3.6 s on the full catalogue,
// over the gateway's statement timeout once the machine was busy; a part takes about 0.5 s.
const WORD_PARTS = ['words0', 'words1', 'words2', 'words3', 'words4', 'words5', 'words6', 'words7'] as const;
const GROUPS = ['categories', 'sets', 'styles', 'colors', 'tags', ...WORD_PARTS] as const;
type Group = (typeof GROUPS)[number];
const wordsOfPart = (part: number) => `icon_search_documents d, LATERAL unnest(d.search) u WHERE d.id % ${WORD_PARTS.length} = ${part}`;
/** Where in a word's positions a document is (SearchWords). */
const Zone = { name: 0, tags: 1, other: 2 } as const;
type Zone = (typeof Zone)[keyof typeof Zone];
const isWordPart = (group: string): group is (typeof WORD_PARTS)[number] => (WORD_PARTS as readonly string[]).includes(group);
/**
 * A part's words, each in three lists (zones): the documents whose name holds it (weight A), the
 * others whose keywords or tags do (B), the rest.
 */
const wordGroup = (name: string, part: number) =>
  Prisma.raw(`${name} AS (SELECT u.lexeme AS value, CASE WHEN 'A' = ANY(u.weights) THEN ${Zone.name} WHEN 'B' = ANY(u.weights) THEN ${Zone.tags} ELSE ${Zone.other} END AS zone,
    count(*)::int AS size, string_agg(int4send(d.id), ''::bytea) AS ids
    FROM ${wordsOfPart(part)} GROUP BY 1, 2)`);

/** The published icons' filter columns, read once (one scan of the icon rows) for the groups that need them. */
const PUBLISHED = Prisma.sql`i AS MATERIALIZED (SELECT id, category_id, set_id, style, colors FROM icons WHERE published)`;
const GROUP_CTES: Record<Group, Prisma.Sql> = {
  categories: grouped('categories', 'c.slug', 'i JOIN categories c ON c.id = i.category_id'),
  sets: grouped('sets', 's.prefix', 'i JOIN icon_sets s ON s.id = i.set_id'),
  styles: grouped('styles', 'style', 'i'),
  // Each colour once per icon, as `colors @> ARRAY[...]` matches it.
  colors: grouped('colors', 'u.c', 'i, LATERAL (SELECT DISTINCT c FROM unnest(i.colors) c) u'),
  tags: grouped('tags', 't.slug', 'icon_tags it JOIN tags t ON t.id = it.tag_id JOIN icons ic ON ic.id = it.icon_id AND ic.published', 'it.icon_id'),
  // The documents a search counts (build-query.ts), a published icon's each, its words once each.
  ...(Object.fromEntries(WORD_PARTS.map((name, part) => [name, wordGroup(name, part)])) as Record<(typeof WORD_PARTS)[number], Prisma.Sql>),
};
/** The groups that read PUBLISHED. */
const OF_PUBLISHED: ReadonlySet<Group> = new Set(['categories', 'sets', 'styles', 'colors']);
const COLUMNS = {
  ids: Prisma.sql`${ordered('id')} AS ids`,
  premium: Prisma.raw(`(SELECT ${base64("string_agg(int4send(id), ''::bytea)")} FROM icons WHERE published AND premium) AS premium`),
  ...(Object.fromEntries(SORT_KEYS.map((sort) => [sort, Prisma.sql`${ordered(sortOrderTerms(sort))} AS ${Prisma.raw(sort)}`])) as Record<SortKey, Prisma.Sql>),
  // Pairs of an id and its name's length.
  name_lengths: Prisma.raw(
    `(SELECT ${base64("string_agg(int4send(id) || int4send(char_length(name)), ''::bytea)")} FROM (SELECT id, name FROM icon_search_documents ORDER BY id) d) AS name_lengths`,
  ),
};

/**
 * The snapshot is read in parts, each a statement that reports the versions it read at: one row
 * holding all of it (27 MB of text on the full catalogue) raised the gateway's peak memory by
 * about 100 MB. Parts that report the same catalogue version are of the same catalogue (only
 * imports change which icons are published and their filter values); otherwise the snapshot is
 * read again. Only the order part depends on `order_version`, and its own is the snapshot's.
 */
function partStatement(groups: readonly Group[], columns: readonly (keyof typeof COLUMNS)[]): Prisma.Sql {
  const ctes = [...(groups.some((group) => OF_PUBLISHED.has(group)) ? [PUBLISHED] : []), ...groups.map((group) => GROUP_CTES[group])];
  return Prisma.sql`${ctes.length ? Prisma.sql`WITH ${Prisma.join(ctes, ',\n')}` : Prisma.empty}
  SELECT (SELECT version FROM catalogue_state WHERE id = 1) AS version,
    (SELECT order_version FROM catalogue_state WHERE id = 1) AS order_version,
    ${Prisma.join([...columns.map((column) => COLUMNS[column]), ...groups.map(groupColumns)], ',\n')}`;
}

// Each part is one statement of its own, so that no one statement holds a connection long. The
// catalogue's parts run once per catalogue version; the orders of downloads once per order
// version too.
const CATALOGUE_PARTS = [
  partStatement(['categories', 'sets', 'styles', 'colors'], ['ids', 'premium']),
  partStatement(['tags'], []),
  ...WORD_PARTS.map((part) => partStatement([part], [])),
  partStatement([], ['newest', 'az', 'name_lengths']),
];
const ORDER_PART = partStatement([], ['popular', 'downloads']);
/** The sorts whose order moves with `order_version` (downloads; ORDER_PART reads them). */
export const ORDER_VERSIONED_SORTS: ReadonlySet<SortKey> = new Set(['popular', 'downloads']);
const MAX_READS = 3;

/** Big-endian int4s in base64. */
type Packed = string | null;
interface GroupSizes {
  values: string[] | null;
  sizes: number[] | null;
  /** Words only: each list's Zone. */
  zones?: Zone[] | null;
}

type Decoded = { version: number; order_version: number } & Partial<Record<keyof typeof COLUMNS | `${Group}_ids`, Int32Array>> &
  Partial<Record<Group, GroupSizes | null>>;

function int32s(packed: Packed): Int32Array {
  if (!packed) return new Int32Array(0);
  const bytes = Buffer.from(packed, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Int32Array(bytes.byteLength >>> 2);
  for (let k = 0; k < values.length; k++) values[k] = view.getInt32(k * 4);
  return values;
}

/** A part's row with its packed columns decoded, so that their text can go before the next part arrives. */
function decoded(row: Record<string, unknown>): Decoded {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[column] = column in COLUMNS || column.endsWith('_ids') ? int32s(value as Packed) : value;
  return out as Decoded;
}

async function readPart(reads: Reads, statement: Prisma.Sql): Promise<Decoded | undefined> {
  const [row] = await reads.rows<Record<string, unknown>>('list_index', statement, { planForValues: true, background: true });
  return row && decoded(row);
}

/**
 * The snapshot of the published icons, or undefined when imports kept changing the catalogue
 * under MAX_READS reads. The parts must report one catalogue version; the order part's order
 * version is the snapshot's.
 */
export async function readSnapshot(reads: Reads): Promise<Snapshot | undefined> {
  for (let attempt = 0; attempt < MAX_READS; attempt++) {
    const parts: Decoded[] = [];
    for (const statement of [...CATALOGUE_PARTS, ORDER_PART]) {
      const part = await readPart(reads, statement);
      if (!part) return undefined;
      parts.push(part);
    }
    const orders = parts.at(-1)!;
    if (parts.every((part) => part.version === orders.version)) {
      const snapshot = await toSnapshot(Object.assign({}, ...parts) as Decoded);
      if (snapshot) return snapshot;
    }
  }
  return undefined;
}

/** The snapshot with the orders of downloads read again; undefined when the catalogue version moved (read it whole). */
export async function readOrders(reads: Reads, snapshot: Snapshot): Promise<Snapshot | undefined> {
  const part = await readPart(reads, ORDER_PART);
  if (!part || part.version !== snapshot.version) return undefined;
  const none = new Int32Array(0);
  const positionOf = positionsById(snapshot.ids);
  const popular = asPositions(part.popular ?? none, positionOf);
  const downloads = asPositions(part.downloads ?? none, positionOf);
  if (!popular || !downloads) return undefined;
  const orders = { ...snapshot.orders, popular, downloads };
  return {
    ...snapshot,
    orderVersion: Number(part.order_version),
    orders,
    ranks: { ...snapshot.ranks, popular: ranksOf(orders.popular), downloads: ranksOf(orders.downloads) },
  };
}

/** Each value with its positions (views of one array), in the order of the values. */
function groupsOf(sizes: GroupSizes | null | undefined, all: Int32Array = new Int32Array(0)): Map<string, Int32Array> {
  const groups = new Map<string, Int32Array>();
  let start = 0;
  for (const [index, value] of (sizes?.values ?? []).entries()) {
    const size = sizes?.sizes?.[index] ?? 0;
    groups.set(value, all.subarray(start, start + size));
    start += size;
  }
  return groups;
}

/** A filter's groups, and each position's code. */
function coded(positions: Map<string, Int32Array>, size: number): { grouped: Grouped; codeOf: Codes } {
  const codes = new Map<string, number>();
  const codeOf = positions.size <= 0x10000 ? new Uint16Array(size) : new Int32Array(size);
  for (const [value, list] of positions) {
    const code = codes.size;
    codes.set(value, code);
    for (const position of list) codeOf[position] = code;
  }
  return { grouped: { positions, codes }, codeOf };
}

/** Each icon id's position (-1: not a published icon), from the ids in position order. */
function positionsById(ids: Int32Array): Int32Array {
  const positionOf = new Int32Array((ids.at(-1) ?? 0) + 1).fill(-1);
  for (let position = 0; position < ids.length; position++) positionOf[ids[position]!] = position;
  return positionOf;
}

/**
 * `ids` made positions, in place; undefined when one is not a published icon's (parts that
 * report one catalogue version hold the same icons, so that is a catalogue read in between).
 */
function asPositions(ids: Int32Array, positionOf: Int32Array): Int32Array | undefined {
  for (let k = 0; k < ids.length; k++) {
    const position = positionOf[ids[k]!] ?? -1;
    if (position < 0) return undefined;
    ids[k] = position;
  }
  return ids;
}

function ranksOf(order: Int32Array): Int32Array {
  const ranks = new Int32Array(order.length);
  for (let rank = 0; rank < order.length; rank++) ranks[order[rank]!] = rank;
  return ranks;
}

/** Undefined when a list holds an icon that is not published at the snapshot's version. */
async function toSnapshot(row: Decoded): Promise<Snapshot | undefined> {
  const none = new Int32Array(0);
  const ids = row.ids ?? none;
  const size = ids.length;
  const positionOf = positionsById(ids);
  const listsOfIds = [row.popular, row.newest, row.downloads, row.az, row.premium, row.categories_ids, row.sets_ids, row.styles_ids, row.colors_ids, row.tags_ids];
  for (const list of listsOfIds) {
    if (list && !asPositions(list, positionOf)) return undefined;
    await nextTurn();
  }
  const orders = { popular: row.popular ?? none, newest: row.newest ?? none, downloads: row.downloads ?? none, az: row.az ?? none };
  const ranks = { popular: ranksOf(orders.popular), newest: ranksOf(orders.newest), downloads: ranksOf(orders.downloads), az: ranksOf(orders.az) };
  await nextTurn();
  const categories = coded(groupsOf(row.categories, row.categories_ids), size);
  const sets = coded(groupsOf(row.sets, row.sets_ids), size);
  const styles = coded(groupsOf(row.styles, row.styles_ids), size);
  await nextTurn();
  const colors: Grouped = { positions: groupsOf(row.colors, row.colors_ids), codes: new Map() };
  const colorsOf = new Uint32Array(size);
  for (const [color, list] of colors.positions) {
    const code = colors.codes.size;
    colors.codes.set(color, code);
    if (code >= COLOR_BITS) continue;
    const bit = (1 << code) >>> 0;
    for (const position of list) colorsOf[position]! |= bit;
  }
  const premium = row.premium ?? none;
  const premiumOf = new Uint8Array(size);
  for (const position of premium) premiumOf[position] = 1;
  const words = await searchWordsOf(
    positionOf,
    size,
    WORD_PARTS.map((part) => ({ values: row[part]?.values ?? [], sizes: row[part]?.sizes ?? [], zones: row[part]?.zones ?? [], ids: row[`${part}_ids`] ?? none })),
    row.name_lengths ?? none,
  );
  return {
    version: Number(row.version),
    orderVersion: Number(row.order_version),
    ids,
    orders,
    ranks,
    categories: categories.grouped,
    sets: sets.grouped,
    styles: styles.grouped,
    colors,
    tags: groupsOf(row.tags, row.tags_ids),
    categoryOf: categories.codeOf,
    setOf: sets.codeOf,
    styleOf: styles.codeOf,
    colorsOf,
    premiumOf,
    premium,
    words,
  };
}

/** One part's words (in the database's order, a word's list of names first), how many ids each list has, and their ids one after another. */
interface WordPart {
  values: string[];
  sizes: number[];
  zones: Zone[];
  ids: Int32Array;
}

/**
 * The words' lists of icon ids, read in parts, as positions, and the names' lengths (pairs of an
 * id and its name's length); undefined when an id is not a published icon's.
 */
async function searchWordsOf(positionOf: Int32Array, size: number, parts: WordPart[], lengthPairs: Int32Array): Promise<SearchWords | undefined> {
  await nextTurn();
  // Code-unit order (sort's own order for strings), not the database's collation: a prefix's
  // words are then adjacent.
  const words = [...new Set(parts.flatMap((part) => part.values))].sort();
  await nextTurn();
  const indexOf = new Map(words.map((word, index) => [word, index]));
  // Each word's positions per zone, then where each zone starts.
  const zoneSizes = new Int32Array(words.length * 3);
  for (const part of parts) {
    for (const [index, word] of part.values.entries()) zoneSizes[indexOf.get(word)! * 3 + part.zones[index]!]! += part.sizes[index]!;
  }
  const starts = new Int32Array(words.length + 1);
  const nameEnds = new Int32Array(words.length);
  const tagEnds = new Int32Array(words.length);
  for (let index = 0; index < words.length; index++) {
    nameEnds[index] = starts[index]! + zoneSizes[index * 3 + Zone.name]!;
    tagEnds[index] = nameEnds[index]! + zoneSizes[index * 3 + Zone.tags]!;
    starts[index + 1] = tagEnds[index]! + zoneSizes[index * 3 + Zone.other]!;
  }
  /** Where each word's next position of each zone goes: its parts' lists follow one another. */
  const next = [starts.slice(0, words.length), nameEnds.slice(), tagEnds.slice()] as const;
  const positions = new Int32Array(starts[words.length]!);
  for (const part of parts) {
    await nextTurn();
    let from = 0;
    for (const [index, word] of part.values.entries()) {
      const to = from + part.sizes[index]!;
      const slot = indexOf.get(word)!;
      const zone = next[part.zones[index]!];
      for (let k = from; k < to; k++) {
        const position = positionOf[part.ids[k]!] ?? -1;
        if (position < 0) return undefined;
        positions[zone[slot]!++] = position;
      }
      from = to;
    }
  }
  const nameLengths = new Uint8Array(size);
  for (let k = 0; k + 1 < lengthPairs.length; k += 2) {
    const position = positionOf[lengthPairs[k]!] ?? -1;
    if (position < 0) return undefined;
    nameLengths[position] = Math.min(lengthPairs[k + 1]!, MAX_NAME_LENGTH);
  }
  // A catalogue too large for the keys counts no search here (the statements do).
  return size <= MAX_LENGTH_SORTED ? await sortedByNameLength({ words, starts, nameEnds, tagEnds, positions, nameLengths }) : undefined;
}

/** Positions below 2^23 (8,388,608 icons): a name's length (8 bits) and a position fit one int32 key. */
const POSITION_BITS = 23;
const MAX_LENGTH_SORTED = 2 ** POSITION_BITS;
/** Positions sorted between two turns of the event loop (about 10 ms of the thread). */
const SORTED_PER_TURN = 200_000;

/**
 * Each word's runs (SearchWords) in the order of the names' lengths, in place: as keys of the
 * length and the position, which the engine's numeric sort orders (no comparator to call).
 */
async function sortedByNameLength(searchWords: SearchWords): Promise<SearchWords> {
  const { starts, nameEnds, tagEnds, positions, nameLengths } = searchWords;
  const mask = MAX_LENGTH_SORTED - 1;
  for (let k = 0; k < positions.length; k++) positions[k] = (nameLengths[positions[k]!]! << POSITION_BITS) | positions[k]!;
  const sortRun = (from: number, to: number) => to - from > 1 && positions.subarray(from, to).sort();
  let sinceTurn = 0;
  for (let word = 0; word + 1 < starts.length; word++) {
    sortRun(starts[word]!, nameEnds[word]!);
    sortRun(nameEnds[word]!, tagEnds[word]!);
    sortRun(tagEnds[word]!, starts[word + 1]!);
    sinceTurn += starts[word + 1]! - starts[word]!;
    if (sinceTurn >= SORTED_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  for (let k = 0; k < positions.length; k++) positions[k]! &= mask;
  return searchWords;
}
