// Categories and tags with their numbers of published icons.
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';

export interface CategoryWithCount {
  slug: string;
  name: string;
  iconCount: number;
}

export interface TagWithCount extends CategoryWithCount {
  tagId: number;
}

export async function listCategories(reads: Reads): Promise<CategoryWithCount[]> {
  const rows = await reads.rows<{ slug: string; name: string; n: bigint | number }>('categories_with_counts', Prisma.sql`
    SELECT c.slug, c.name, coalesce(n.n, 0) AS n FROM categories c
    LEFT JOIN (SELECT category_id, count(*) AS n FROM icons WHERE published GROUP BY category_id) n ON n.category_id = c.id
    ORDER BY c.name, c.slug`);
  return rows.map((row) => ({ slug: row.slug, name: row.name, iconCount: Number(row.n) }));
}

export async function listTags(reads: Reads): Promise<TagWithCount[]> {
  const rows = await reads.rows<{ id: number; slug: string; name: string; n: bigint | number }>('tags_with_counts', Prisma.sql`
    SELECT t.id, t.slug, t.name, coalesce(n.n, 0) AS n FROM tags t
    LEFT JOIN (SELECT it.tag_id, count(*) AS n FROM icon_tags it JOIN icons i ON i.id = it.icon_id AND i.published GROUP BY it.tag_id) n
      ON n.tag_id = t.id
    ORDER BY t.name, t.slug`);
  return rows.map((row) => ({ tagId: row.id, slug: row.slug, name: row.name, iconCount: Number(row.n) }));
}
