// Icon sets: the list of sets with published icons, and batched loaders for what a set shows
// beyond its own columns (its published icon count, a few sample icons). The count is the one
// the import writes with the set's icons, in the same transaction (icon_sets.icon_count), so
// listing every set costs no scan of the icons.
import DataLoader from 'dataloader';
import type { PrismaClient } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import { loadIconsInOrder, type IconRecord } from './icon-records.ts';
import type { SetRecord } from './sets-and-categories.ts';

/** How many sample icons a set shows. */
export const SAMPLES_PER_SET = 4;

export async function listSets(prisma: PrismaClient): Promise<SetRecord[]> {
  return prisma.iconSet.findMany({
    where: { iconCount: { gt: 0 } },
    orderBy: [{ name: 'asc' }, { prefix: 'asc' }],
    select: { prefix: true, name: true, author: true, authorUrl: true, licenseTitle: true, licenseSpdx: true, licenseUrl: true, premium: true },
  });
}

export function createSetLoaders(reads: Reads) {
  return {
    setIconCounts: new DataLoader<string, number>(async (prefixes) => {
      const rows = await reads.rows<{ prefix: string; icon_count: number }>(
        'set_icon_counts',
        Prisma.sql`SELECT prefix, icon_count FROM icon_sets WHERE prefix = ANY(${[...prefixes]}::text[])`,
      );
      const counts = new Map(rows.map((row) => [row.prefix, row.icon_count]));
      return prefixes.map((prefix) => counts.get(prefix) ?? 0);
    }),
    /** The ids of a set's first published icons by name (the index on (set_id, source_name) serves each in a few rows). */
    setSampleIds: new DataLoader<string, number[]>(async (prefixes) => {
      const rows = await reads.rows<{ prefix: string; id: number }>('set_sample_ids', Prisma.sql`
        SELECT s.prefix, x.id FROM icon_sets s
        CROSS JOIN LATERAL (SELECT i.id FROM icons i WHERE i.set_id = s.id AND i.published ORDER BY i.source_name LIMIT ${SAMPLES_PER_SET}) x
        WHERE s.prefix = ANY(${[...prefixes]}::text[])`);
      const byPrefix = new Map<string, number[]>();
      for (const row of rows) byPrefix.set(row.prefix, [...(byPrefix.get(row.prefix) ?? []), row.id]);
      return prefixes.map((prefix) => byPrefix.get(prefix) ?? []);
    }),
    /** Icon records by id, so that the samples of every set come in one statement. */
    iconRecords: new DataLoader<number, IconRecord | null>(async (ids) => {
      const byId = new Map((await loadIconsInOrder(reads, ids)).map((icon) => [icon.id, icon]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}

export type SetLoaders = ReturnType<typeof createSetLoaders>;
