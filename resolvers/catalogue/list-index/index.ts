// The list index (issue 12): the published icons' filter values and their four sort orders in
// typed arrays, per database (snapshot.ts), so that a list page (`icons` without a cursor) is
// found in memory (pages.ts) and only its rows are read. A list page's own statement was the
// database's work for a list miss (2 to 5 ms of PostgreSQL per page on the full catalogue, more
// for tags and colours), and the database is what limited list misses.
//
// Exactness: a snapshot is read by one statement, so at one catalogue version and one order
// version (`catalogue_state`: imports move the first, download folds and expiries the second).
// A page from it is served only when the page's rows were read at those same versions (the
// rows' statement reports them, icon-records.ts): the page is then the one SQL would have found
// in that snapshot of the database. Otherwise the request is answered by SQL (list-icons.ts)
// and the index is rebuilt in the background, one build at a time and at most one per
// MIN_BUILD_INTERVAL_MS. A change made by hand in SQL moves neither version and is not seen
// until the next build, as with the count cache's totals.
import { perReads, type Reads } from '../../../prisma/reads.ts';
import type { IconFilter, SortKey } from '../filters.ts';
import { snapshotPages, type SnapshotPages } from './pages.ts';
import { readSnapshot, sameVersions, type CatalogueVersions } from './snapshot.ts';

export { sameVersions, type CatalogueVersions } from './snapshot.ts';

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
export interface IndexedPage extends CatalogueVersions {
  ids: number[];
  total: number;
}

export interface ListIndex {
  /** The page from memory; undefined when the index is not built, is stale, or cannot check the filter. */
  page(request: IndexedPageRequest): IndexedPage | undefined;
  /** A page's rows were read at `versions` (undefined: none was read): stale unless they are the index's. */
  outdated(versions: CatalogueVersions | undefined): void;
  /** Builds the index now unless it is current (tests, warm-up); resolves once it is usable or the build failed. */
  build(): Promise<void>;
}

interface Built extends CatalogueVersions {
  ids: Int32Array;
  pages: SnapshotPages;
}

function createListIndex(reads: Reads): ListIndex {
  let built: Built | undefined;
  let stale = true;
  let building: Promise<void> | undefined;
  let lastBuildAt = -Infinity;

  function build(): Promise<void> {
    building ??= (async () => {
      lastBuildAt = Date.now();
      try {
        const snapshot = await readSnapshot(reads);
        if (!snapshot) return;
        built = { version: snapshot.version, orderVersion: snapshot.orderVersion, ids: snapshot.ids, pages: snapshotPages(snapshot) };
        stale = false;
      } catch {
        // The database is busy or down: list pages are read by SQL meanwhile (their own failures
        // reach their clients), and the next attempt waits MIN_BUILD_INTERVAL_MS.
      } finally {
        building = undefined;
      }
    })();
    return building;
  }

  return {
    page({ filter = {}, sort, offset, perPage }) {
      if (stale || !built) {
        if (!building && Date.now() - lastBuildAt >= MIN_BUILD_INTERVAL_MS) void build();
        return undefined;
      }
      const found = built.pages.page(filter, sort, offset, perPage);
      if (found === 'sql') return undefined;
      const { ids } = built;
      return { ids: Array.from(found.positions, (position) => ids[position]!), total: found.total, version: built.version, orderVersion: built.orderVersion };
    },
    outdated(versions) {
      if (built && (!versions || !sameVersions(built, versions))) stale = true;
    },
    build: () => (stale || !built ? build() : Promise.resolve()),
  };
}

/** The list index of a database (one per reads object). */
export const listIndexOf = perReads((reads) => createListIndex(reads));
