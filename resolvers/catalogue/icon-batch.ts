// Several icons in one request, by ids or by slugs, in the order asked: those that are not
// published (or do not exist) are reported, as asked, instead of failing the whole request.
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import { loadIconsInOrder, type IconRecord } from './icon-records.ts';

export interface IconBatch {
  icons: IconRecord[];
  /** The refs asked that match no published icon, in the order asked. */
  missing: string[];
}

export async function loadBatchByIds(reads: Reads, ids: readonly number[]): Promise<IconBatch> {
  const icons = await loadIconsInOrder(reads, ids);
  const found = new Set(icons.map((icon) => icon.id));
  return { icons, missing: ids.filter((id) => !found.has(id)).map(String) };
}

export async function loadBatchBySlugs(reads: Reads, slugs: readonly string[]): Promise<IconBatch> {
  const rows = await reads.rows<{ id: number; slug: string }>(
    'icon_ids_by_slugs',
    Prisma.sql`SELECT id, slug FROM icons WHERE slug = ANY(${[...slugs]}::text[]) AND published`,
  );
  const idOf = new Map(rows.map((row) => [row.slug, row.id]));
  const icons = await loadIconsInOrder(reads, slugs.flatMap((slug) => idOf.get(slug) ?? []));
  return { icons, missing: slugs.filter((slug) => !idOf.has(slug)) };
}
