// Downloads that an earlier gateway counted but did not fold, folded before a run starts. A
// gateway folds what it counted when it stops; a stop whose fold outlasts the drain timeout
// leaves the rest in icon_download_days (nothing is lost: any gateway's next fold takes them).
// Left there, they would be folded by the gateway under measurement, in the middle of a
// scenario: 31,372 such rows after a few runs on the full catalogue (2026-11-26), and one such
// fold took 6.2 s of PostgreSQL during a single-icon run. Folded here, every run starts alike.
import { foldDownloads } from '../prisma/download-batches.ts';
import { openDatabase } from '../prisma/database.ts';
import { formatInt } from './report.ts';

export interface LeftoverFold {
  /** Day rows that were waiting for a fold. */
  rows: number;
  /** Icon updates the fold made (foldDownloads' count). */
  updates: number;
  seconds: number;
  line: string;
}

export async function foldLeftoverDownloads(source: { url?: string | undefined; dataDir?: string | undefined }): Promise<LeftoverFold> {
  const db = await openDatabase({ url: source.url, dataDir: source.dataDir, poolSize: 1 });
  try {
    // A database no gateway has migrated yet has no table of download days: nothing to fold (the gateway migrates it at start).
    const [table] = await db.prisma.$queryRawUnsafe<{ present: boolean }[]>(`SELECT to_regclass('icon_download_days') IS NOT NULL AS present`);
    if (!table?.present) return { rows: 0, updates: 0, seconds: 0, line: 'no table of download days yet (the gateway migrates at start)' };
    const [waiting] = await db.prisma.$queryRawUnsafe<{ rows: number }[]>('SELECT count(*)::int AS rows FROM icon_download_days WHERE folded < downloads');
    const rows = Number(waiting?.rows ?? 0);
    if (rows === 0) return { rows, updates: 0, seconds: 0, line: 'no downloads were waiting for a fold' };
    const started = performance.now();
    const updates = await foldDownloads(db.prisma);
    const seconds = (performance.now() - started) / 1000;
    return { rows, updates, seconds, line: `folded ${formatInt(rows)} download-day rows that earlier gateways left (${formatInt(updates)} icon updates, ${seconds.toFixed(1)} s) before starting` };
  } finally {
    await db.close();
  }
}
