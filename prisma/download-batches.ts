// Downloads as the gateways count them (the download-counts plugin). A gateway keeps counts in
// memory and sends them every few seconds as one batch: one statement that adds them to the
// icons' totals, their recent totals and today's row of icon_download_days. Additions commute,
// so any number of gateway processes count exactly; each batch carries an id, recorded in the
// same statement, so a batch resent after a failure whose outcome was unknown (the connection
// broke before the answer) is applied once. `popularity` is generated from recent_downloads
// (the icon_downloads migration), so it follows without another write.
//
// Two concurrent batches that touch the same icons may deadlock; PostgreSQL then aborts one
// whole statement, and its gateway resends the batch. Nothing is added twice or lost.
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
 * Adds the batch's downloads; false when a batch with its id was applied before (nothing is
 * added again). Names that match no icon are dropped.
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
       SELECT i.id, g.n FROM unnest($6::text[], $7::text[], $8::int[]) AS g(prefix, name, n)
         JOIN icon_sets s ON s.prefix = g.prefix JOIN icons i ON i.set_id = s.id AND i.source_name = g.name
     ), counted AS (
       SELECT id, sum(n)::int AS n FROM given WHERE EXISTS (SELECT 1 FROM batch) GROUP BY id
     ), days AS (
       INSERT INTO icon_download_days (icon_id, day, downloads)
       SELECT id, ${TODAY}, n FROM counted ORDER BY id
       ON CONFLICT (icon_id, day) DO UPDATE SET downloads = icon_download_days.downloads + excluded.downloads
     ), icons_counted AS (
       UPDATE icons i SET downloads = i.downloads + c.n, recent_downloads = i.recent_downloads + c.n
       FROM counted c WHERE i.id = c.id
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
 * Takes the days that left the recent window (the last `recentDays` UTC days, today included)
 * out of the icons' recent totals, and forgets batch ids older than a day. Safe to run from
 * every gateway at once: a day's row is deleted, and so subtracted, by one statement only.
 * Returns how many day rows expired.
 */
export async function expireRecentDownloads(prisma: PrismaClient, recentDays: number): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ expired: number }[]>(
    `WITH expired AS (
       DELETE FROM icon_download_days WHERE day <= ${TODAY} - $1::int RETURNING icon_id, downloads
     ), per_icon AS (
       SELECT icon_id, sum(downloads)::int AS n FROM expired GROUP BY icon_id
     ), subtracted AS (
       UPDATE icons i SET recent_downloads = i.recent_downloads - p.n FROM per_icon p WHERE i.id = p.icon_id
     )
     SELECT count(*)::int AS expired FROM expired`,
    recentDays,
  );
  await prisma.$executeRawUnsafe(`DELETE FROM download_batches WHERE applied_at < now() - interval '1 day'`);
  return row?.expired ?? 0;
}
