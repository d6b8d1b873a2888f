// Keeping search current after icons change. PostgreSQL does not maintain a materialized
// view, so whoever writes icons refreshes the search vocabulary (`search_words`: every lexeme
// of the published icons and the number of icons it occurs in, which typo correction reads).
// Until then only typo correction is stale: matching and ranking read the icons themselves.
//
// Whether it is current is recorded, not assumed: writing a set increments
// `catalogue_state.version` in the set's transaction (write-set.ts), and a finished refresh
// records the version it was made for in `search_data_version`. An importer killed between its
// sets' commits and the end of the refresh leaves the two apart, and whoever comes next (any
// import, even one that finds every set unchanged, or the embedded server's start) rebuilds.
// The refresh itself is one statement: readers see the old vocabulary or the new, never a
// part of it.
import { ordersMovedCte } from '../catalogue-state.ts';
import type { PrismaClient } from '../generated/client.ts';

export interface CatalogueState {
  version: bigint;
  searchDataVersion: bigint;
}

export async function readCatalogueState(prisma: PrismaClient): Promise<CatalogueState> {
  const state = await prisma.catalogueState.findUnique({ where: { id: 1 }, select: { version: true, searchDataVersion: true } });
  return state ?? { version: 0n, searchDataVersion: 0n };
}

/**
 * Recomputes the vocabulary (about 2 s on the full catalogue on PostgreSQL, 0.3 s on the demo
 * catalogue). CONCURRENTLY: searches keep reading the previous vocabulary meanwhile.
 * Run it outside a transaction, after the icons' transactions have committed.
 */
export async function refreshSearchVocabulary(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRawUnsafe('REFRESH MATERIALIZED VIEW CONCURRENTLY search_words');
  await prisma.$executeRawUnsafe('ANALYZE search_words');
}

/**
 * The prior of every icon's popularity (concept_breadth: how many sets draw its concept among
 * the published icons), where it changed. Popularity is generated from it and the counted
 * downloads (the icon_downloads migration says how), so a change moves the order version.
 */
export async function refreshConceptBreadth(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ changed: number }[]>(
    `WITH changed AS (
       UPDATE icons i SET concept_breadth = c.sets
       FROM (SELECT concept, count(DISTINCT set_id)::int AS sets FROM icons WHERE published GROUP BY concept) c
       WHERE i.concept = c.concept AND i.concept_breadth <> c.sets RETURNING i.id
     ), ${ordersMovedCte('changed')}
     SELECT count(*)::int AS changed FROM changed`,
  );
  return row?.changed ?? 0;
}

/**
 * Prisma ends a transaction after 5 s by default; the counts take about 3 s on the full
 * catalogue on a quiet machine and took over 6 s on a loaded one, which failed `import --all`
 * at its very end. Minutes are the bound that means something is wrong.
 */
const REFRESH_TRANSACTION = { timeout: 10 * 60_000, maxWait: 60_000 };

/** A one-word search is counted at refresh when the words it matches occur in this many icons. */
export const KEPT_TOTAL_MIN_ICONS = 10_000;

/**
 * The exact totals of the one-word searches that match the most icons (`search_term_totals`):
 * every token a search treats as a prefix (3+ characters) or as a whole word (shorter) whose
 * vocabulary words occur in at least `minIcons` icons together (an upper bound of its total),
 * ASCII letters and digits only (so PostgreSQL and parse-query.ts agree on its length). Each is
 * counted with the same tsquery term as a search of it, and with the catalogue version in the
 * same statement, so in one snapshot: a search uses a total only beside a page of that version.
 * About 170 tokens and 3 s on the full catalogue; a count of one of them took 20 to 160 ms.
 */
export async function refreshSearchTermTotals(prisma: PrismaClient, minIcons = KEPT_TOTAL_MIN_ICONS): Promise<number> {
  const [, , written] = await prisma.$transaction([
    // Two importers refreshing at once: the second waits for the first's rows, then replaces
    // them (without it, both inserted the same tokens and one failed on the key). Readers
    // (ACCESS SHARE) are not blocked.
    prisma.$executeRaw`LOCK TABLE search_term_totals IN EXCLUSIVE MODE`,
    prisma.$executeRaw`DELETE FROM search_term_totals`,
    prisma.$executeRaw`WITH words AS (SELECT word, ndoc FROM search_words WHERE word ~ '^[a-z0-9]+$'),
      tokens AS (
        SELECT left(word, n) AS token, true AS prefix FROM words, generate_series(3, length(word)) n GROUP BY 1 HAVING sum(ndoc) >= ${minIcons}
        UNION ALL
        SELECT word, false FROM words WHERE length(word) < 3 AND ndoc >= ${minIcons}
      )
      INSERT INTO search_term_totals (token, icons, catalogue_version)
      SELECT t.token,
        (SELECT count(*) FROM icon_search_documents d WHERE d.search @@ (quote_literal(t.token) || CASE WHEN t.prefix THEN ':*' ELSE '' END)::tsquery),
        (SELECT version FROM catalogue_state WHERE id = 1)
      FROM tokens t`,
  ], REFRESH_TRANSACTION);
  return written;
}

/**
 * The vocabulary and the popularity prior (refreshConceptBreadth), then VACUUM (ANALYZE) of icons
 * and their search documents, and ANALYZE of the tables joined to it, then the totals of the
 * most common one-word searches (refreshSearchTermTotals), then the record that all
 * are done for the catalogue's current version. The vacuum marks pages all-visible, so ranking names by prefix
 * is an index-only scan, and the statistics let the planner pick the search indexes. A
 * PostgreSQL server's autovacuum would get there on its own a little later; embedded PGlite has
 * no autovacuum (there, searches are about twice as fast after it). Must not run inside a
 * transaction.
 */
export async function refreshSearchData(prisma: PrismaClient): Promise<void> {
  // Read first: the refresh then sees at least everything this version holds.
  const { version } = await readCatalogueState(prisma);
  await refreshSearchVocabulary(prisma);
  await refreshConceptBreadth(prisma);
  await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icons');
  // Also merges the full-text index's pending entries, which every count would otherwise scan and recheck.
  await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icon_search_documents');
  // The tables the single icon's tags and the lists' joins read: never analyzed, icon_tags looked
  // like thousands of links per icon, and an icon's tags took 360 index probes (2.4 ms instead of 0.2).
  await prisma.$executeRawUnsafe('ANALYZE icon_tags, tags, categories, icon_sets');
  // After the vacuum: its counts read the documents table and its index.
  await refreshSearchTermTotals(prisma);
  // GREATEST: an import that committed meanwhile has refreshed for its own, later version.
  await prisma.$executeRaw`UPDATE catalogue_state SET search_data_version = GREATEST(search_data_version, ${version}) WHERE id = 1`;
}

/** Rebuilds the search data when the catalogue changed since it was last rebuilt; true when it did. */
export async function refreshSearchDataIfBehind(prisma: PrismaClient): Promise<boolean> {
  const state = await readCatalogueState(prisma);
  if (state.searchDataVersion >= state.version) return false;
  await refreshSearchData(prisma);
  return true;
}
