// Pages from one snapshot of the list index (snapshot.ts). A filter's total is counted by
// looking through the fewest positions one of its filters selects (a tag's list, a category's,
// several sets' lists...), testing the others on per-icon codes, and kept. Its page is then found one of
// two ways, as the SQL statements do (list-icons.ts): up to SORTED_MATCHES_UP_TO matches, their
// ranks in the sort order are sorted (a native sort of integers) and the list is kept for the
// filter's other pages; beyond, the sort order is walked until the page is full, which with so
// many matches ends early (at most about 19 positions per row up to the page's end).
import { LRUCache } from 'lru-cache';
import { isUnfiltered, type IconFilter, type SortKey } from '../filters.ts';
import { createNameCandidates, type NameCandidates, type NameScope } from './name-candidates.ts';
import { createMatchCounter, type MatchQuery } from './search-totals.ts';
import { COLOR_BITS, type Snapshot } from './snapshot.ts';

export const SORTED_MATCHES_UP_TO = 20_000;
/** Totals kept per catalogue version (filters, whatever the sort). */
const MAX_TOTALS = 20_000;
/** Positions the sorted match lists kept per snapshot may hold in all (4 bytes each). */
const MAX_SORTED_POSITIONS = 2_000_000;

/** What a filter asks, resolved against a snapshot's values. */
interface Wanted {
  /** The fewest positions one filter selects (several sets: their lists); undefined: every position. */
  candidates: Int32Array[] | undefined;
  accepts: (position: number) => boolean;
  /** A tag's positions, marked while the filter is looked at (`accepts` reads the marks). */
  tag: Int32Array | undefined;
}

/** The filter resolved; 'none' when a value names nothing (no icon matches), 'sql' when the index cannot check it. */
function wantedOf(snapshot: Snapshot, filter: IconFilter, marks: Uint8Array): Wanted | 'none' | 'sql' {
  const { categories, styles, colors, sets, categoryOf, styleOf, colorsOf, premiumOf, setOf } = snapshot;
  const lists: Int32Array[][] = [];
  let category = -1;
  let style = -1;
  let colorBit = 0;
  let premium = -1;
  let setWanted: Uint8Array | undefined;
  let tag: Int32Array | undefined;
  if (filter.category != null) {
    category = categories.codes.get(filter.category) ?? -1;
    if (category < 0) return 'none';
    lists.push([categories.positions.get(filter.category)!]);
  }
  if (filter.style != null) {
    style = styles.codes.get(filter.style) ?? -1;
    if (style < 0) return 'none';
    lists.push([styles.positions.get(filter.style)!]);
  }
  if (filter.color != null) {
    const code = colors.codes.get(filter.color);
    if (code === undefined) return 'none';
    if (code >= COLOR_BITS) return 'sql';
    colorBit = (1 << code) >>> 0;
    lists.push([colors.positions.get(filter.color)!]);
  }
  if (filter.license != null) {
    premium = filter.license === 'premium' ? 1 : 0;
    if (premium === 1) lists.push([snapshot.premium]);
  }
  if (filter.set != null) {
    const prefixes = [...new Set(filter.set)].filter((prefix) => sets.codes.has(prefix));
    if (prefixes.length === 0) return 'none';
    setWanted = new Uint8Array(sets.codes.size);
    for (const prefix of prefixes) setWanted[sets.codes.get(prefix)!] = 1;
    lists.push(prefixes.map((prefix) => sets.positions.get(prefix)!));
  }
  if (filter.tag != null) {
    tag = snapshot.tags.get(filter.tag);
    if (tag === undefined) return 'none';
    lists.push([tag]);
  }
  const sizeOf = (union: Int32Array[]) => union.reduce((sum, list) => sum + list.length, 0);
  const candidates = lists.reduce<Int32Array[] | undefined>((fewest, union) => (fewest && sizeOf(fewest) <= sizeOf(union) ? fewest : union), undefined);
  const marked = tag !== undefined;
  const accepts = (position: number) =>
    (category < 0 || categoryOf[position] === category) &&
    (style < 0 || styleOf[position] === style) &&
    (colorBit === 0 || (colorsOf[position]! & colorBit) !== 0) &&
    (premium < 0 || premiumOf[position] === premium) &&
    (setWanted === undefined || setWanted[setOf[position]!] === 1) &&
    (!marked || marks[position] === 1);
  return { candidates, accepts, tag };
}

export interface PagePositions {
  positions: Int32Array;
  total: number;
}

export interface SnapshotPages {
  /** The page's positions and the filter's total; 'sql' when the index cannot check the filter. */
  page(filter: IconFilter, sort: SortKey, offset: number, perPage: number): PagePositions | 'sql';
  /** How many icons match a search's query and the filter; 'sql' when the index cannot check the filter or has no search words. */
  searchTotal(query: MatchQuery, filter: IconFilter): number | 'sql';
  /** The shortest names where each token holds a word of its terms in the scope (name-candidates.ts); 'sql' when the index has no search words or they are too many. */
  nameCandidates(query: MatchQuery, scope: NameScope, wanted: number, most: number): NameCandidates | 'sql';
}

/** Totals of filters on one catalogue version (they do not depend on the order). */
export type Totals = LRUCache<string, number>;
export const newTotals = (): Totals => new LRUCache<string, number>({ max: MAX_TOTALS });

/** Pages of `snapshot`; `totals` are those of its catalogue version (kept across its order versions). */
export function snapshotPages(snapshot: Snapshot, totals: Totals): SnapshotPages {
  const size = snapshot.ids.length;
  const marks = new Uint8Array(size);
  const sortedMatches = new LRUCache<string, Int32Array>({ maxSize: MAX_SORTED_POSITIONS, sizeCalculation: (list) => Math.max(1, list.length) });
  const countMatches = snapshot.words && createMatchCounter(snapshot.words, size);
  const findNameCandidates = snapshot.words && createNameCandidates(snapshot.words, size);

  /** Runs `use` with the filter resolved (its tag marked meanwhile). */
  function withWanted<T>(filter: IconFilter, use: (wanted: Wanted) => T): T | 'none' | 'sql' {
    const wanted = wantedOf(snapshot, filter, marks);
    if (wanted === 'sql' || wanted === 'none') return wanted;
    const { tag } = wanted;
    if (tag) for (const position of tag) marks[position] = 1;
    try {
      return use(wanted);
    } finally {
      if (tag) for (const position of tag) marks[position] = 0;
    }
  }

  /** Calls `visit` with each accepted position, in no order. */
  function forEachMatch({ candidates, accepts }: Wanted, visit: (position: number) => void): void {
    if (candidates) {
      for (const list of candidates) for (const position of list) if (accepts(position)) visit(position);
    } else {
      for (let position = 0; position < size; position++) if (accepts(position)) visit(position);
    }
  }

  function sortedPositions(wanted: Wanted, sort: SortKey, total: number): Int32Array {
    const ranks = snapshot.ranks[sort];
    const found = new Int32Array(total);
    let count = 0;
    forEachMatch(wanted, (position) => {
      found[count++] = ranks[position]!;
    });
    found.sort();
    const order = snapshot.orders[sort];
    for (let k = 0; k < count; k++) found[k] = order[found[k]!]!;
    return found;
  }

  function walk({ accepts }: Wanted, order: Int32Array, offset: number, perPage: number): Int32Array {
    const page = new Int32Array(perPage);
    let skipped = 0;
    let taken = 0;
    for (let rank = 0; rank < order.length && taken < perPage; rank++) {
      const position = order[rank]!;
      if (!accepts(position)) continue;
      if (skipped < offset) skipped++;
      else page[taken++] = position;
    }
    return page.subarray(0, taken);
  }

  return {
    page(filter, sort, offset, perPage) {
      const order = snapshot.orders[sort];
      if (isUnfiltered(filter)) return { positions: order.subarray(Math.min(offset, size), Math.min(offset + perPage, size)), total: size };
      const found = withWanted(filter, (wanted) => {
        const filterKey = JSON.stringify([filter.category, filter.tag, filter.style, filter.color, filter.license, filter.set]);
        let total = totals.get(filterKey);
        if (total === undefined) {
          let count = 0;
          forEachMatch(wanted, () => count++);
          total = count;
          totals.set(filterKey, total);
        }
        if (offset >= total) return { positions: new Int32Array(0), total };
        if (total > SORTED_MATCHES_UP_TO) return { positions: walk(wanted, order, offset, perPage), total };
        const listKey = `${sort} ${filterKey}`;
        let sorted = sortedMatches.get(listKey);
        if (!sorted) {
          sorted = sortedPositions(wanted, sort, total);
          sortedMatches.set(listKey, sorted);
        }
        return { positions: sorted.subarray(offset, offset + perPage), total };
      });
      return found === 'none' ? { positions: new Int32Array(0), total: 0 } : found;
    },
    searchTotal(query, filter) {
      if (!countMatches) return 'sql';
      if (isUnfiltered(filter)) return countMatches(query);
      const total = withWanted(filter, ({ accepts }) => countMatches(query, accepts));
      return total === 'none' ? 0 : total;
    },
    nameCandidates(query, scope, wanted, most) {
      return findNameCandidates?.(query, scope, wanted, most) ?? 'sql';
    },
  };
}
