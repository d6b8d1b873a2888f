// Downloads as the gateways count them (the download-counts plugin), in three kinds of
// statement, each atomic on its own and safe to run from any number of gateway processes at once:
//
// - applyDownloadBatch, every few seconds per gateway: adds a batch of counts to today's rows of
//   icon_download_days. Additions commute, so the gateways add up exactly; the batch's id is
//   recorded by the same statement, so a batch resent after a failure whose outcome was unknown
//   (the connection broke before the answer) adds nothing.
// - foldDownloads, every few minutes: moves what the day rows hold beyond `folded` into the
//   icons' `downloads` and `recent_downloads` (`popularity` is generated from the latter). An
//   icons row is wide and in 19 indexes, so updating one costs about ten times an upsert of a
//   day row: folding updates each icon once per fold statement (a fold takes its day rows 1,000 at a time),
//   however often it was flushed meanwhile.
// - expireRecentDownloads, hourly: deletes the folded days that left the recent window and
//   subtracts them from recent_downloads.
//
// Concurrent statements that touch the same rows may deadlock; PostgreSQL then aborts one whole
// statement, and its gateway runs it again later. Nothing is added twice or lost.
import { ordersMovedCte } from './catalogue-state.ts';
import type { PrismaClient } from './generated/client.ts';

export interface DownloadBatch {
  /** Unique to this batch, kept when it is resent. */
  id: string;
  /** Icons named by numeric id, with their downloads. */
  ids: { id: number; count: number }[];
  /** Icons named by slug. */
  slugs: { slug: string; count: number }[];
  /** Icons named by their set's prefix and their name there (a file's address). */
  files: { prefix: string; name: string; count: number }[];
}

/** The UTC day of the database's clock, so that every gateway files a download under the same day. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;

/**
 * Adds the batch's downloads to today's rows; false when a batch with its id was applied before
 * (nothing is added again). A file's name may be an alias (Iconify's protocol serves aliases as
 * files): it counts for the icon its chain ends at. Names that match no icon are dropped.
 */
export async function applyDownloadBatch(prisma: PrismaClient, batch: DownloadBatch): Promise<boolean> {
  const rows = await prisma.$queryRawUnsafe<{ applied: boolean }[]>(
    `WITH batch AS (
       INSERT INTO download_batches (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id
     ), given AS (
       SELECT i.id, g.n FROM unnest($2::int[], $3::int[]) AS g(id, n) JOIN icons i ON i.id = g.id
       UNION ALL
       SELECT i.id, g.n FROM unnest($4::text[], $5::int[]) AS g(slug, n) JOIN icons i ON i.slug = g.slug
       UNION ALL
       SELECT coalesce(i.id, a.icon_id), g.n FROM unnest($6::text[], $7::text[], $8::int[]) AS g(prefix, name, n)
         JOIN icon_sets s ON s.prefix = g.prefix
         LEFT JOIN icons i ON i.set_id = s.id AND i.source_name = g.name
         LEFT JOIN icon_aliases a ON i.id IS NULL AND a.set_id = s.id AND a.name = g.name
         WHERE coalesce(i.id, a.icon_id) IS NOT NULL
     ), counted AS (
       SELECT id, sum(n)::int AS n FROM given WHERE EXISTS (SELECT 1 FROM batch) GROUP BY id
     ), days AS (
       INSERT INTO icon_download_days (icon_id, day, downloads)
       SELECT id, ${TODAY}, n FROM counted ORDER BY id
       ON CONFLICT (icon_id, day) DO UPDATE SET downloads = icon_download_days.downloads + excluded.downloads
     )
     SELECT EXISTS (SELECT 1 FROM batch) AS applied`,
    batch.id,
    batch.ids.map((entry) => entry.id),
    batch.ids.map((entry) => entry.count),
    batch.slugs.map((entry) => entry.slug),
    batch.slugs.map((entry) => entry.count),
    batch.files.map((entry) => entry.prefix),
    batch.files.map((entry) => entry.name),
    batch.files.map((entry) => entry.count),
  );
  return rows[0]?.applied === true;
}

/**
 * Day rows one fold or expiry statement takes. Folding rewrites each icon's row and its index
 * entries (popularity changes): 1,000 took 0.25 s on the full catalogue, where the 33,844 days a
 * long benchmark left took longer than the statement timeout, so the one statement that folded
 * them all was cancelled, retried at every flush, and cancelled again (writing and discarding
 * half a gigabyte of WAL each time) while nothing was folded.
 */
export const DOWNLOAD_ROWS_PER_STATEMENT = 1_000;

/** The day rows' key, where a fold has got to: (icon_id, day), in the primary key's order. */
interface FoldPosition {
  iconId: number;
  /** An ISO date, or PostgreSQL's -infinity before the first row. */
  day: string;
}

function checkRowsPerStatement(rowsPerStatement: number): void {
  if (!Number.isInteger(rowsPerStatement) || rowsPerStatement < 1) throw new RangeError(`rowsPerStatement must be a whole number >= 1, not ${rowsPerStatement}`);
}

/**
 * Adds the downloads not folded yet to the icons' totals and recent totals, and marks them
 * folded, in statements of at most `rowsPerStatement` day rows, each committed alone. The
 * statements go through the day rows once, in key order, each starting after the last row the
 * one before took: rows that gateways add meanwhile behind that point wait for the next fold, so
 * a fold ends however fast downloads arrive (restarting from the first key, a stream of new
 * days there could keep it folding those alone). The rows are locked as they are read, so a
 * concurrent fold waits, then finds them folded; a batch applied meanwhile waits too. Returns
 * how many icon updates it made (an icon whose days two statements share counts twice).
 */
export async function foldDownloads(prisma: PrismaClient, rowsPerStatement = DOWNLOAD_ROWS_PER_STATEMENT): Promise<number> {
  checkRowsPerStatement(rowsPerStatement);
  let updates = 0;
  let after: FoldPosition = { iconId: -1, day: '-infinity' };
  for (;;) {
    const [row] = await prisma.$queryRawUnsafe<{ icons: number; days: number; last_icon_id: number | null; last_day: string | null }[]>(
      `WITH due AS (
         SELECT icon_id, day, downloads, downloads - folded AS n FROM icon_download_days
         WHERE folded < downloads AND (icon_id, day) > ($2::int, $3::date)
         ORDER BY icon_id, day LIMIT $1 FOR UPDATE
       ), marked AS (
         UPDATE icon_download_days d SET folded = due.downloads FROM due WHERE d.icon_id = due.icon_id AND d.day = due.day
       ), per_icon AS (
         SELECT icon_id, sum(n)::int AS n FROM due GROUP BY icon_id
       ), added AS (
         UPDATE icons i SET downloads = i.downloads + p.n, recent_downloads = i.recent_downloads + p.n
         FROM per_icon p WHERE i.id = p.icon_id RETURNING i.id
       ), ${ordersMovedCte('added')}, last AS (
         SELECT icon_id, day FROM due ORDER BY icon_id DESC, day DESC LIMIT 1
       )
       SELECT (SELECT count(*) FROM added)::int AS icons, (SELECT count(*) FROM due)::int AS days,
         (SELECT icon_id FROM last) AS last_icon_id, (SELECT day::text FROM last) AS last_day`,
      rowsPerStatement,
      after.iconId,
      after.day,
    );
    updates += row?.icons ?? 0;
    if (!row || row.days < rowsPerStatement || row.last_icon_id === null || row.last_day === null) return updates;
    after = { iconId: row.last_icon_id, day: row.last_day };
  }
}

/**
 * Takes the folded days that left the recent window (the last `recentDays` UTC days, today
 * included) out of the icons' recent totals, and forgets batch ids older than a day. A day not
 * folded yet waits for the next fold. A day's row is deleted, and so subtracted, by one
 * statement only; statements take at most `rowsPerStatement` rows each, as folds do. Returns
 * how many day rows expired.
 */
export async function expireRecentDownloads(prisma: PrismaClient, recentDays: number, rowsPerStatement = DOWNLOAD_ROWS_PER_STATEMENT): Promise<number> {
  checkRowsPerStatement(rowsPerStatement);
  let expiredRows = 0;
  for (;;) {
    const [row] = await prisma.$queryRawUnsafe<{ expired: number; taken: number }[]>(
      `WITH taken AS (
         SELECT icon_id, day FROM icon_download_days WHERE day <= ${TODAY} - $1::int AND folded = downloads
         ORDER BY icon_id, day LIMIT $2 FOR UPDATE
       ), expired AS (
         DELETE FROM icon_download_days d USING taken WHERE d.icon_id = taken.icon_id AND d.day = taken.day RETURNING d.icon_id, d.downloads
       ), per_icon AS (
         SELECT icon_id, sum(downloads)::int AS n FROM expired GROUP BY icon_id
       ), subtracted AS (
         UPDATE icons i SET recent_downloads = i.recent_downloads - p.n FROM per_icon p WHERE i.id = p.icon_id RETURNING i.id
       ), ${ordersMovedCte('subtracted')}
       SELECT (SELECT count(*) FROM expired)::int AS expired, (SELECT count(*) FROM taken)::int AS taken`,
      recentDays,
      rowsPerStatement,
    );
    expiredRows += row?.expired ?? 0;
    if ((row?.taken ?? 0) < rowsPerStatement) break;
  }
  await prisma.$executeRawUnsafe(`DELETE FROM download_batches WHERE applied_at < now() - interval '1 day'`);
  return expiredRows;
}
