// How worn the icons table is when a run starts. Every download fold rewrites icon rows (never
// as HOT updates: popularity and downloads are in sort indexes), so a server whose autovacuum is
// off (this workplace's PostgreSQL) piles up dead rows from run to run, and list pages and counts
// slow down with them: list-page misses on the full catalogue went from 214 to 350 a second
// after one VACUUM of 512,249 dead rows (bench/RESULTS.md, 2026-11-25). A fold that changes an
// icon's popularity also rewrites its row of icon_search_documents (a trigger), which searches
// read: 155,768 dead rows there beside 380,909 live took search misses from about 200 to 120 a
// second (2026-11-25 evening). Runs are comparable only when this line is.
import { openDatabase } from '../prisma/database.ts';
import { formatInt } from './report.ts';

export interface TableHealth {
  line: string;
  /** The statistics' dead and live rows of the icons table (0 and 0 where there are none). */
  dead: number;
  live: number;
  /** The search documents' dead and live rows. */
  documents: { dead: number; live: number };
  /** Dead rows are more than a fifth of the live ones in either table (where autovacuum would have run). */
  worn: boolean;
}

interface TableRow {
  relname: string;
  live: number;
  dead: number;
  autovacuum: string;
  vacuumed: Date | null;
}

const wornOut = ({ dead, live }: { dead: number; live: number }) => dead > live / 5;

export async function readTableHealth(source: { url?: string | undefined; dataDir?: string | undefined }): Promise<TableHealth> {
  const db = await openDatabase({ url: source.url, dataDir: source.dataDir, poolSize: 1 });
  try {
    const rows = await db.prisma.$queryRawUnsafe<TableRow[]>(
      `SELECT relname, n_live_tup::int AS live, n_dead_tup::int AS dead, current_setting('autovacuum') AS autovacuum,
              greatest(last_vacuum, last_autovacuum) AS vacuumed
         FROM pg_stat_user_tables WHERE relname IN ('icons', 'icon_search_documents')`,
    );
    const row = rows.find((table) => table.relname === 'icons');
    const docs = rows.find((table) => table.relname === 'icon_search_documents');
    const live = Number(row?.live ?? 0);
    const dead = Number(row?.dead ?? 0);
    const documents = { dead: Number(docs?.dead ?? 0), live: Number(docs?.live ?? 0) };
    // PGlite keeps no row statistics across restarts (and runs no autovacuum).
    if (!row || live + dead === 0) return { line: 'icons table: no row statistics yet (PGlite keeps none across restarts)', dead, live, documents, worn: false };
    const vacuumed = (table: TableRow | undefined) => (table?.vacuumed ? `last vacuumed ${table.vacuumed.toISOString().replace(/\.\d+Z$/, 'Z')}` : 'never vacuumed');
    return {
      line:
        `icons table: ${formatInt(dead)} dead rows beside ${formatInt(live)} live (autovacuum ${row.autovacuum}, ${vacuumed(row)}); ` +
        `search documents: ${formatInt(documents.dead)} dead beside ${formatInt(documents.live)} live (${vacuumed(docs)})`,
      dead,
      live,
      documents,
      worn: wornOut({ dead, live }) || wornOut(documents),
    };
  } finally {
    await db.close();
  }
}
