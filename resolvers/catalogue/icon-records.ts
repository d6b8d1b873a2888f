// Loading icons. A page: one statement for the rows of a whole page (set and category joined
// in), and batched loaders for what only some queries ask for (tags, SVG bodies, ownership), so
// a page of 100 icons with tags is a fixed handful of statements. A single icon: one statement
// for all of it (record, tags, markup and whether the caller owns it), whose parts the
// resolvers find in the same loaders, primed (a single-icon miss was three statements, and the
// statements' fixed cost, Prisma's and the driver's, was most of the gateway's work).
import DataLoader from 'dataloader';
import type { Icon, IconSet } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import { safeSvgBody } from '../svg.ts';

/** An icon as the resolvers see it: the model's columns (no body, no search document) plus joined names. */
export type IconRecord = Pick<
  Icon,
  'id' | 'slug' | 'sourceName' | 'name' | 'categoryName' | 'style' | 'colors' | 'premium' | 'downloads' | 'popularity' | 'publishedAt' | 'width' | 'height' | 'keywords' | 'bodyDigest'
> & {
  categorySlug: string;
  set: Pick<IconSet, 'prefix' | 'name' | 'author' | 'authorUrl' | 'licenseTitle' | 'licenseSpdx' | 'licenseUrl' | 'premium'>;
};

interface IconRow {
  id: number;
  slug: string;
  source_name: string;
  name: string;
  category_name: string;
  category_slug: string;
  style: string;
  colors: string[] | null;
  premium: boolean;
  downloads: number;
  popularity: number;
  published_at: Date;
  width: number;
  height: number;
  keywords: string[] | null;
  body_digest: string;
  set_prefix: string;
  set_name: string;
  set_author: string;
  set_author_url: string | null;
  set_license_title: string;
  set_license_spdx: string | null;
  set_license_url: string | null;
  set_premium: boolean;
}

const ICON_COLUMNS = Prisma.sql`
  i.id, i.slug, i.source_name, i.name, c.name AS category_name, c.slug AS category_slug, i.style, i.colors,
  i.premium, i.downloads, i.popularity, i.published_at, i.width, i.height, i.keywords, i.body_digest,
  s.prefix AS set_prefix, s.name AS set_name, s.author AS set_author, s.author_url AS set_author_url,
  s.license_title AS set_license_title, s.license_spdx AS set_license_spdx,
  s.license_url AS set_license_url, s.premium AS set_premium`;
const ICON_JOINS = Prisma.sql`FROM icons i JOIN categories c ON c.id = i.category_id JOIN icon_sets s ON s.id = i.set_id`;
const ICON_SELECT = Prisma.sql`SELECT ${ICON_COLUMNS} ${ICON_JOINS}`;

function toRecord(row: IconRow): IconRecord {
  return {
    id: row.id,
    slug: row.slug,
    sourceName: row.source_name,
    name: row.name,
    categoryName: row.category_name,
    categorySlug: row.category_slug,
    style: row.style,
    colors: row.colors ?? [],
    premium: row.premium,
    downloads: row.downloads,
    popularity: row.popularity,
    publishedAt: row.published_at,
    width: row.width,
    height: row.height,
    keywords: row.keywords ?? [],
    bodyDigest: row.body_digest,
    set: {
      prefix: row.set_prefix,
      name: row.set_name,
      author: row.set_author,
      authorUrl: row.set_author_url,
      licenseTitle: row.set_license_title,
      licenseSpdx: row.set_license_spdx,
      licenseUrl: row.set_license_url,
      premium: row.set_premium,
    },
  };
}

/** Published icons by id, in the order of `ids` (ids that are not published are left out). */
export async function loadIconsInOrder(reads: Reads, ids: readonly number[]): Promise<IconRecord[]> {
  if (ids.length === 0) return [];
  const rows = await reads.rows<IconRow>('icons_by_id', Prisma.sql`${ICON_SELECT} WHERE i.id = ANY(${[...ids]}::int[]) AND i.published`);
  const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface TagRecord {
  slug: string;
  name: string;
  tagId: number;
}

/** A single icon and what its detail shows, read together. */
export interface IconDetail {
  icon: IconRecord;
  tags: TagRecord[];
  /** Whether the caller's account owns the icon (false for anonymous callers). */
  owned: boolean;
  /** The SVG body, sanitized; only for a free icon or one the caller owns (premium markup never leaves the database for others). */
  body: string | null;
}

interface IconDetailRow extends IconRow {
  /** [tag id, slug, name] in the tags' display order. */
  tags: [number, string, string][] | string;
  owned: boolean;
  body: string | null;
  body_mark: string | null;
}

/** How a single icon is named: by numeric id or slug (`/icons/{ref}`), or by its set and its name there (a file's address). */
export type IconLookup = { ref: string } | { prefix: string; name: string };

/** Whether `/icons/{ref}` names an icon by its numeric id (else by its slug). */
export const isIdRef = (ref: string): boolean => /^\d{1,9}$/.test(ref);

/** The condition and statement name of a lookup; undefined when nothing can match (PostgreSQL text cannot hold NUL). */
function lookupCondition(lookup: IconLookup): { name: string; condition: Prisma.Sql } | undefined {
  if ('ref' in lookup) {
    if (lookup.ref.includes('\u0000')) return undefined;
    return isIdRef(lookup.ref)
      ? { name: 'icon_detail_by_id', condition: Prisma.sql`i.id = ${Number(lookup.ref)}` }
      : { name: 'icon_detail_by_slug', condition: Prisma.sql`i.slug = ${lookup.ref}` };
  }
  if (`${lookup.prefix}${lookup.name}`.includes('\u0000')) return undefined;
  return { name: 'icon_detail_by_set_name', condition: Prisma.sql`s.prefix = ${lookup.prefix} AND i.source_name = ${lookup.name}` };
}

/**
 * The single icon's one statement. Tags come as one JSON array in the order the tags loader
 * gives them (name, then slug). The body of a premium icon the caller does not own stays in the
 * database unless `releasePremiumBody` (a file request with a signature, which the resolver
 * checks before anything leaves the gateway).
 */
function iconDetailRead(lookup: IconLookup, accountId: number | null, releasePremiumBody: boolean): { name: string; sql: Prisma.Sql } | undefined {
  const where = lookupCondition(lookup);
  if (!where) return undefined;
  return {
    name: releasePremiumBody ? `${where.name}_signed` : where.name,
    sql: Prisma.sql`
      SELECT ${ICON_COLUMNS},
        (SELECT coalesce(json_agg(json_build_array(t.id, t.slug, t.name) ORDER BY t.name, t.slug), '[]')
           FROM icon_tags it JOIN tags t ON t.id = it.tag_id WHERE it.icon_id = i.id AND NOT it.of_set) AS tags,
        o.owned, ${releasePremiumBody ? Prisma.sql`i.body` : Prisma.sql`CASE WHEN i.premium AND NOT o.owned THEN NULL ELSE i.body END`} AS body, i.body_mark
      ${ICON_JOINS}
      CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM ownership WHERE account_id = ${accountId}::int AND icon_id = i.id) AS owned) o
      WHERE ${where.condition} AND i.published`,
  };
}

/** One published icon, with its tags, its markup when the caller may have it, and the caller's ownership. */
export async function loadIconDetail(reads: Reads, lookup: IconLookup, accountId: number | null, { releasePremiumBody = false } = {}): Promise<IconDetail | undefined> {
  const read = iconDetailRead(lookup, accountId, releasePremiumBody);
  if (!read) return undefined;
  const [row] = await reads.rows<IconDetailRow>(read.name, read.sql);
  if (!row) return undefined;
  const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as [number, string, string][]) : row.tags;
  const body = row.body === null ? null : safeSvgBody(row.body, row.body_mark);
  return { icon: toRecord(row), tags: tags.map(([tagId, slug, name]) => ({ slug, name, tagId })), owned: row.owned, body };
}

export function createIconLoaders(reads: Reads) {
  return {
    tags: new DataLoader<number, TagRecord[]>(async (iconIds) => {
      const rows = await reads.rows<{ icon_id: number; tag_id: number; slug: string; name: string }>(
        'tags_of_icons',
        Prisma.sql`SELECT it.icon_id, t.id AS tag_id, t.slug, t.name FROM icon_tags it JOIN tags t ON t.id = it.tag_id
                   WHERE it.icon_id = ANY(${[...iconIds]}::int[]) AND NOT it.of_set ORDER BY t.name, t.slug`,
      );
      const byIcon = new Map<number, TagRecord[]>();
      for (const row of rows) {
        const list = byIcon.get(row.icon_id) ?? [];
        list.push({ slug: row.slug, name: row.name, tagId: row.tag_id });
        byIcon.set(row.icon_id, list);
      }
      return iconIds.map((id) => byIcon.get(id) ?? []);
    }),
    tagIconCounts: new DataLoader<number, number>(async (tagIds) => {
      const rows = await reads.rows<{ tag_id: number; n: bigint | number }>(
        'tag_icon_counts',
        Prisma.sql`SELECT it.tag_id, count(*) AS n FROM icon_tags it JOIN icons i ON i.id = it.icon_id AND i.published
                   WHERE it.tag_id = ANY(${[...tagIds]}::int[]) GROUP BY it.tag_id`,
      );
      const counts = new Map(rows.map((row) => [row.tag_id, Number(row.n)]));
      return tagIds.map((id) => counts.get(id) ?? 0);
    }),
    /** Sanitized SVG bodies. */
    bodies: new DataLoader<number, string>(async (iconIds) => {
      const rows = await reads.rows<{ id: number; body: string; body_mark: string | null }>(
        'icon_bodies',
        Prisma.sql`SELECT id, body, body_mark FROM icons WHERE id = ANY(${[...iconIds]}::int[])`,
      );
      const bodies = new Map(rows.map((row) => [row.id, safeSvgBody(row.body, row.body_mark)]));
      return iconIds.map((id) => bodies.get(id) ?? new Error(`icon ${id} has no body`));
    }),
  };
}

export type IconLoaders = ReturnType<typeof createIconLoaders>;
