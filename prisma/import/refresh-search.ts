// Keeping search current after icons change. PostgreSQL does not maintain a materialized
// view, so whoever writes icons refreshes the search vocabulary (`search_words`: every lexeme
// of the published icons and the number of icons it occurs in, which typo correction reads).
// The importer does it once after its sets are written (import-sets.ts; see the README's search section). Until then only typo
// correction is stale: matching and ranking read the icons themselves.
import type { PrismaClient } from '../generated/client.ts';

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
 * What the importer calls once after writing sets: the vocabulary, then VACUUM (ANALYZE) of
 * icons. The vacuum marks pages all-visible, so ranking names by prefix is an index-only
 * scan, and the statistics let the planner pick the search indexes. A PostgreSQL server's
 * autovacuum would get there on its own a little later; embedded PGlite has no autovacuum
 * (there, searches are about twice as fast after it). Must not run inside a transaction.
 */
export async function refreshSearchData(prisma: PrismaClient): Promise<void> {
  await refreshSearchVocabulary(prisma);
  await prisma.$executeRawUnsafe('VACUUM (ANALYZE) icons');
}
