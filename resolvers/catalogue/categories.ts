// Categories and tags with their numbers of published icons.
import type { PrismaClient } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';

export interface CategoryWithCount {
  slug: string;
  name: string;
  iconCount: number;
}

export interface TagWithCount extends CategoryWithCount {
  tagId: number;
}

export async function listCategories(prisma: PrismaClient): Promise<CategoryWithCount[]> {
  const rows = await prisma.$queryRaw<{ slug: string; name: string; n: bigint }[]>(Prisma.sql`
    SELECT c.slug, c.name, coalesce(n.n, 0) AS n FROM categories c
    LEFT JOIN (SELECT category_id, count(*) AS n FROM icons WHERE published GROUP BY category_id) n ON n.category_id = c.id
    ORDER BY c.name, c.slug`);
  return rows.map((row) => ({ slug: row.slug, name: row.name, iconCount: Number(row.n) }));
}

export async function listTags(prisma: PrismaClient): Promise<TagWithCount[]> {
  const rows = await prisma.$queryRaw<{ id: number; slug: string; name: string; n: bigint }[]>(Prisma.sql`
    SELECT t.id, t.slug, t.name, coalesce(n.n, 0) AS n FROM tags t
    LEFT JOIN (SELECT it.tag_id, count(*) AS n FROM icon_tags it JOIN icons i ON i.id = it.icon_id AND i.published GROUP BY it.tag_id) n
      ON n.tag_id = t.id
    ORDER BY t.name, t.slug`);
  return rows.map((row) => ({ tagId: row.id, slug: row.slug, name: row.name, iconCount: Number(row.n) }));
}
