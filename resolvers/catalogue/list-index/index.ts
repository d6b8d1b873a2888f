// The list index (issue 12): the published icons' filter values and their four sort orders in
// typed arrays, per database (snapshot.ts), so that a list page (`icons` without a cursor) is
// found in memory (pages.ts) and only its rows are read. A list page's own statement was the
// database's work for a list miss (2 to 5 ms of PostgreSQL per page on the full catalogue, more
// for tags and colours), and the database is what limited list misses.
//
// Exactness: a snapshot is read at one catalogue version (`catalogue_state.version`, which
// imports move), its orders of `popular` and `downloads` at one order version (`order_version`,
// which download folds and expiries and the import's refresh of the popularity prior move). A
// page from it is served only when the page's rows were read at the same catalogue version and,
// for those two sorts, the same order version (the rows' statement reports both,
// icon-records.ts): the page is then the one SQL would have found in that snapshot of the
// database. Otherwise the request is answered by SQL (list-icons.ts) and what the rows showed
// stale is read again in the background (the whole snapshot, or the two orders alone), one read
// at a time and at most one per MIN_BUILD_INTERVAL_MS. A change made by hand in SQL moves
// neither version and is not seen until the next build, as with the count cache's totals.
//
// A search's total is counted here too (search-totals.ts), with the catalogue version it holds
// at: the search reads its page alone and keeps the total only when the page was read at that
// version (count-cache.ts), as with a total it counted itself.
import { logger } from '../../../lib/logger.ts';
import { perReads, type Reads } from '../../../prisma/reads.ts';
import type { IconFilter, SortKey } from '../filters.ts';
import { newTotals, snapshotPages, type SnapshotPages, type Totals } from './pages.ts';
import type { NameScope } from './name-candidates.ts';
import type { MatchQuery } from './search-totals.ts';
import { ORDER_VERSIONED_SORTS, readOrders, readSnapshot, type CatalogueVersions, type Snapshot } from './snapshot.ts';

export type { CatalogueVersions } from './snapshot.ts';
export type { NameScope } from './name-candidates.ts';
export type { MatchQuery, MatchTerm } from './search-totals.ts';

/** Icons found by name (ListIndex.nameCandidates). */
export interface NamedIcons {
  ids: number[];
  /** Whether they are every icon where each token holds a word of its terms in the scope. */
  complete: boolean;
  /** Whether they include every icon where each token's first term's word itself is in the scope. */
  holdsWholeWords: boolean;
  /** The catalogue version they hold at. */
  version: number;
}

/** A stale index is rebuilt at most this often (an import moves the version once per set). */
export const MIN_BUILD_INTERVAL_MS = 5_000;

export interface IndexedPageRequest {
  filter?: IconFilter | undefined;
  sort: SortKey;
  /** Rows before the page. */
  offset: number;
  perPage: number;
}

/** A page as the index found it: icon ids, the total, and the versions it holds at. */
export interface IndexedPage {
  ids: number[];
  total: number;
  version: number;
  /** Undefined for the sorts that no download moves (`newest`, `az`). */
  orderVersion: number | undefined;
}

/** Whether a page from the index is the page of a database read at `versions`. */
export function holdsAt(page: IndexedPage, versions: CatalogueVersions | undefined): boolean {
  return versions !== undefined && versions.version === page.version && (page.orderVersion === undefined || page.orderVersion === versions.orderVersion);
}

export interface ListIndex {
  /** The page from memory; undefined when the index is not built, is stale for it, or cannot check the filter. */
  page(request: IndexedPageRequest): IndexedPage | undefined;
  /** How many icons a search matches, and the catalogue version that holds at; undefined when the index is not built, is stale, or cannot check the filter. */
  searchTotal(query: MatchQuery, filter?: IconFilter): { total: number; version: number } | undefined;
  /**
   * The icons with the shortest names where each token holds a word of its terms in the scope (name-candidates.ts),
   * and the catalogue version that holds at; undefined when the index is not built, is stale,
   * finds more than `most`, or the words' lists are too long to look through.
   */
  nameCandidates(query: MatchQuery, scope: NameScope, wanted: number, most: number): NamedIcons | undefined;
  /**
   * A page's rows were read at `versions` (undefined: none was read; no `orderVersion`: the rows'
   * statement did not read it): whatever they show stale is rebuilt.
   */
  outdated(versions: { version: number; orderVersion?: number | undefined } | undefined): void;
  /**
   * Brings the index up to date now unless it is (tests, warm-up); resolves once it is usable,
   * with the number of icons it holds, or once the build failed, with undefined.
   */
  build(): Promise<number | undefined>;
}

interface Built {
  snapshot: Snapshot;
  pages: SnapshotPages;
  totals: Totals;
}

function createListIndex(reads: Reads): ListIndex {
  let built: Built | undefined;
  /** The catalogue moved: everything is read again. */
  let stale = true;
  /** Downloads moved: the orders they sort are read again. */
  let ordersStale = false;
  let building: Promise<void> | undefined;
  let lastBuildAt = -Infinity;
  /** Why the last build failed, told once until a build succeeds or fails otherwise (an outage retries every MIN_BUILD_INTERVAL_MS). */
  let lastFailure: string | undefined;

  function buildOnce(): Promise<void> {
    building ??= (async () => {
      lastBuildAt = Date.now();
      try {
        if (built && !stale && ordersStale) {
          const snapshot = await readOrders(reads, built.snapshot);
          if (snapshot) {
            // The totals hold at the same catalogue version (the kept sorted lists start again).
            built = { snapshot, pages: snapshotPages(snapshot, built.totals), totals: built.totals };
            ordersStale = false;
            lastFailure = undefined;
            return;
          }
        }
        const snapshot = await readSnapshot(reads);
        if (!snapshot) return;
        const totals = newTotals();
        built = { snapshot, pages: snapshotPages(snapshot, totals), totals };
        stale = false;
        ordersStale = false;
        lastFailure = undefined;
      } catch (error) {
        // The database is busy or down: list pages are read by SQL meanwhile (their own failures
        // reach their clients), and the next attempt waits MIN_BUILD_INTERVAL_MS.
        const failure = error instanceof Error ? error.message : String(error);
        if (failure !== lastFailure) logger.warn({ msg: 'list index not read: list pages are read by SQL until a later request reads it', error: failure });
        lastFailure = failure;
      } finally {
        building = undefined;
      }
    })();
    return building;
  }

  /** The built index when it is current (for the sorts of downloads too, when `orders`); otherwise starts a build, at most once per MIN_BUILD_INTERVAL_MS. */
  function current(orders: boolean): Built | undefined {
    if (built && !stale && !(orders && ordersStale)) return built;
    if (!building && Date.now() - lastBuildAt >= MIN_BUILD_INTERVAL_MS) void buildOnce();
    return undefined;
  }

  return {
    page({ filter = {}, sort, offset, perPage }) {
      const orderVersioned = ORDER_VERSIONED_SORTS.has(sort);
      const ready = current(orderVersioned);
      if (!ready) return undefined;
      const found = ready.pages.page(filter, sort, offset, perPage);
      if (found === 'sql') return undefined;
      const { ids, version, orderVersion } = ready.snapshot;
      return { ids: Array.from(found.positions, (position) => ids[position]!), total: found.total, version, orderVersion: orderVersioned ? orderVersion : undefined };
    },
    searchTotal(query, filter = {}) {
      const ready = current(false);
      if (!ready) return undefined;
      const total = ready.pages.searchTotal(query, filter);
      return total === 'sql' ? undefined : { total, version: ready.snapshot.version };
    },
    nameCandidates(query, scope, wanted, most) {
      const ready = current(false);
      const found = ready?.pages.nameCandidates(query, scope, wanted, most);
      if (!ready || !found || found === 'sql') return undefined;
      const { ids, version } = ready.snapshot;
      return { ids: Array.from(found.positions, (position) => ids[position]!), complete: found.complete, holdsWholeWords: found.holdsWholeWords, version };
    },
    outdated(versions) {
      if (!built) return;
      // Versions only grow: rows read at versions the index has passed (it was read again while
      // they were on their way) say nothing about it.
      if (!versions || versions.version > built.snapshot.version) stale = true;
      else if (versions.version === built.snapshot.version && versions.orderVersion !== undefined && versions.orderVersion > built.snapshot.orderVersion) ordersStale = true;
    },
    async build() {
      // A change that lands during a read leaves the index stale again: read until it is not, a few times.
      for (let attempt = 0; attempt < 3 && (stale || ordersStale || !built); attempt++) await buildOnce();
      return built && !stale ? built.snapshot.ids.length : undefined;
    },
  };
}

/** The list index of a database (one per reads object). */
export const listIndexOf = perReads((reads) => createListIndex(reads));
