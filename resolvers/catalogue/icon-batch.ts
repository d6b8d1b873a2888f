// Several icons in one request, by ids or by slugs, in the order asked: those that are not
// published (or do not exist) are reported, as asked, instead of failing the whole request.
import type { PrismaClient } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { loadIconsInOrder, type IconRecord } from './icon-records.ts';

export interface IconBatch {
  icons: IconRecord[];
  /** The refs asked that match no published icon, in the order asked. */
  missing: string[];
}

export async function loadBatchByIds(prisma: PrismaClient, ids: readonly number[]): Promise<IconBatch> {
  const icons = await loadIconsInOrder(prisma, ids);
  const found = new Set(icons.map((icon) => icon.id));
  return { icons, missing: ids.filter((id) => !found.has(id)).map(String) };
}

export async function loadBatchBySlugs(prisma: PrismaClient, slugs: readonly string[]): Promise<IconBatch> {
  const rows = await prisma.$queryRaw<{ id: number; slug: string }[]>(
    Prisma.sql`SELECT id, slug FROM icons WHERE slug = ANY(${[...slugs]}::text[]) AND published`,
  );
  const idOf = new Map(rows.map((row) => [row.slug, row.id]));
  const icons = await loadIconsInOrder(prisma, slugs.flatMap((slug) => idOf.get(slug) ?? []));
  return { icons, missing: slugs.filter((slug) => !idOf.has(slug)) };
}
