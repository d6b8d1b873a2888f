// How worn the icons table is when a run starts. Every download fold rewrites icon rows (never
// as HOT updates: popularity and downloads are in sort indexes), so a server whose autovacuum is
// off (this workplace's PostgreSQL) piles up dead rows from run to run, and list pages and counts
// slow down with them: list-page misses on the full catalogue went from 214 to 350 a second
// after one VACUUM of 512,249 dead rows (bench/RESULTS.md, 2026-11-25). Runs are comparable only
// when this line is.
import { openDatabase } from '../prisma/database.ts';
import { formatInt } from './report.ts';

export interface TableHealth {
  line: string;
  /** The statistics' dead and live rows of the icons table (0 and 0 where there are none). */
  dead: number;
  live: number;
  /** Dead rows are more than a fifth of the live ones (where autovacuum would have run). */
  worn: boolean;
}

export async function readTableHealth(source: { url?: string | undefined; dataDir?: string | undefined }): Promise<TableHealth> {
  const db = await openDatabase({ url: source.url, dataDir: source.dataDir, poolSize: 1 });
  try {
    const [row] = await db.prisma.$queryRawUnsafe<{ live: number; dead: number; autovacuum: string; vacuumed: Date | null }[]>(
      `SELECT n_live_tup::int AS live, n_dead_tup::int AS dead, current_setting('autovacuum') AS autovacuum,
              greatest(last_vacuum, last_autovacuum) AS vacuumed
         FROM pg_stat_user_tables WHERE relname = 'icons'`,
    );
    const live = Number(row?.live ?? 0);
    const dead = Number(row?.dead ?? 0);
    // PGlite keeps no row statistics across restarts (and runs no autovacuum).
    if (!row || live + dead === 0) return { line: 'icons table: no row statistics yet (PGlite keeps none across restarts)', dead, live, worn: false };
    const vacuumed = row.vacuumed ? `, last vacuumed ${row.vacuumed.toISOString().replace(/\.\d+Z$/, 'Z')}` : ', never vacuumed';
    return {
      line: `icons table: ${formatInt(dead)} dead rows beside ${formatInt(live)} live (autovacuum ${row.autovacuum}${vacuumed})`,
      dead,
      live,
      worn: dead > live / 5,
    };
  } finally {
    await db.close();
  }
}
