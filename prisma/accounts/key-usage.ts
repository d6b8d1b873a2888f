// Requests per API key per UTC hour, as the gateways count them (the account portal's usage
// recording): each gateway adds a batch every few seconds. Additions commute, so the gateways
// add up exactly; the batch's id is recorded by the same statement, so a batch resent after a
// failure whose outcome was unknown adds nothing (as download batches, download-batches.ts).
import type { PrismaClient } from '../generated/client.ts';

export interface KeyUsageBatch {
  /** Unique to this batch, kept when it is resent. */
  id: string;
  /** Requests of a key (by its row id) in the UTC hour starting at `hour` (Unix seconds). */
  entries: { keyId: number; hour: number; count: number }[];
}

/** Adds the batch; false when a batch with its id was applied before. Keys deleted meanwhile are dropped. */
export async function applyKeyUsageBatch(prisma: PrismaClient, batch: KeyUsageBatch): Promise<boolean> {
  const rows = await prisma.$queryRawUnsafe<{ applied: boolean }[]>(
    `WITH batch AS (
       INSERT INTO key_usage_batches (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id
     ), counted AS (
       SELECT g.key_id, to_timestamp(g.hour) AS hour, sum(g.n)::int AS n
       FROM unnest($2::int[], $3::bigint[], $4::int[]) AS g(key_id, hour, n)
       JOIN api_keys k ON k.id = g.key_id
       WHERE EXISTS (SELECT 1 FROM batch) GROUP BY g.key_id, g.hour
     ), added AS (
       INSERT INTO api_key_usage_hours (key_id, hour, requests)
       SELECT key_id, hour, n FROM counted ORDER BY key_id, hour
       ON CONFLICT (key_id, hour) DO UPDATE SET requests = api_key_usage_hours.requests + excluded.requests
     )
     SELECT EXISTS (SELECT 1 FROM batch) AS applied`,
    batch.id,
    batch.entries.map((entry) => entry.keyId),
    batch.entries.map((entry) => entry.hour),
    batch.entries.map((entry) => entry.count),
  );
  return rows[0]?.applied === true;
}

/** Forgets usage older than `keepDays` and batch ids older than a day. */
export async function expireKeyUsage(prisma: PrismaClient, keepDays: number): Promise<void> {
  await prisma.$executeRawUnsafe(`DELETE FROM api_key_usage_hours WHERE hour < now() - make_interval(days => $1)`, keepDays);
  await prisma.$executeRawUnsafe(`DELETE FROM key_usage_batches WHERE applied_at < now() - interval '1 day'`);
}

/** The account's usage since `since`, per key and hour (keys revoked since included). */
export async function accountUsage(prisma: PrismaClient, accountId: number, since: Date): Promise<{ keyId: number; hour: Date; requests: number }[]> {
  return prisma.apiKeyUsageHour.findMany({
    where: { key: { accountId }, hour: { gte: since } },
    select: { keyId: true, hour: true, requests: true },
    orderBy: { hour: 'asc' },
  });
}

/** The UTC hour a moment falls in, as Unix seconds. */
export function hourOf(ms: number): number {
  return Math.floor(ms / 3_600_000) * 3_600;
}
