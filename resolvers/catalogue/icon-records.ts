// Loading icons. A page: one statement for the rows of a whole page (their sets and categories
// from a copy in memory, sets-and-categories.ts), and batched loaders for what only some queries
// ask for (tags, SVG bodies, colours and keywords, ownership), so a page of 100 icons with tags
// is a fixed handful of statements. A single icon is read whole by icon-detail.ts, whose parts
// the resolvers find in the same loaders, primed.
import DataLoader from 'dataloader';
import type { Icon } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { perReads, type Reads } from '../../prisma/reads.ts';
import type { CatalogueVersions } from './list-index/index.ts';
import { setsAndCategoriesFor, type SetRecord, type SetsAndCategories } from './sets-and-categories.ts';
import { sharedLoader } from './shared-loader.ts';
import { safeSvgBody } from '../svg.ts';
import { attributionOf } from './attribution.ts';

/**
 * An icon as the resolvers see it: the model's columns (no body, search document, colours or
 * keywords) plus its set's and category's names. `category`, `license`, `licenseUrl` and
 * `attribution` are the GraphQL Icon's fields themselves, which then need no resolver: graphql-jit
 * reads such a field as a property, where a resolver costs a call with its arguments, its path
 * and info objects and three closures, for every icon of a page.
 */
export type IconRecord = Pick<Icon, 'id' | 'slug' | 'sourceName' | 'name' | 'style' | 'premium' | 'downloads' | 'popularity' | 'publishedAt' | 'width' | 'height' | 'bodyDigest'> & {
  /** The category's name. */
  category: string;
  categorySlug: string;
  /** The set's license, by its title. */
  license: string;
  licenseUrl: string | null;
  /** The credit line its license asks for, or null (attribution.ts). */
  attribution: string | null;
  /** Shared by the records of the set's icons. */
  set: Readonly<SetRecord>;
};

export interface IconRow {
  id: number;
  slug: string;
  source_name: string;
  name: string;
  category_id: number;
  set_id: number;
  style: string;
  premium: boolean;
  downloads: number;
  popularity: number;
  published_at: Date;
  width: number;
  height: number;
  body_digest: string;
  /** The `catalogue_state.version` the row was read at: which copy of the sets and categories has its own. */
  catalogue_version: number;
}

const CATALOGUE_VERSION = Prisma.sql`(SELECT version FROM catalogue_state WHERE id = 1) AS catalogue_version`;

/**
 * An icon's columns, with the catalogue version they were read at (the statement names the icons
 * `i`). Not its colours and keywords: arrays that only GraphQL's `colors` and `keywords` show,
 * read when asked for (`colorsAndKeywords` below); parsing them was a large part of reading a
 * list page's rows.
 */
export const ICON_COLUMNS = Prisma.sql`
  i.id, i.slug, i.source_name, i.name, i.category_id, i.set_id, i.style,
  i.premium, i.downloads, i.popularity, i.published_at, i.width, i.height, i.body_digest,
  ${CATALOGUE_VERSION}`;

/** What makes the records of rows read in one statement (so at one catalogue version): their sets and categories are looked up first. */
export async function recordMaker(reads: Reads, rows: readonly IconRow[]): Promise<(row: IconRow) => IconRecord> {
  const names = rows.length === 0 ? undefined : await setsAndCategoriesFor(reads, Number(rows[0]!.catalogue_version), rows);
  return (row) => toRecord(row, names!);
}

function toRecord(row: IconRow, { sets, categories }: SetsAndCategories): IconRecord {
  const category = categories.get(row.category_id)!;
  const set = sets.get(row.set_id)!;
  return {
    id: row.id,
    slug: row.slug,
    sourceName: row.source_name,
    name: row.name,
    category: category.name,
    categorySlug: category.slug,
    license: set.licenseTitle,
    licenseUrl: set.licenseUrl,
    attribution: attributionOf(row.name, set),
    style: row.style,
    premium: row.premium,
    downloads: row.downloads,
    popularity: row.popularity,
    publishedAt: row.published_at,
    width: row.width,
    height: row.height,
    bodyDigest: row.body_digest,
    set,
  };
}

/** The most requests whose pages one statement reads (at most 100 icons each). */
const MAX_PAGES_PER_STATEMENT = 20;

/** The order version the rows were read at (with their catalogue version): a page from the list index holds only at its own. */
const ORDER_VERSION = Prisma.sql`(SELECT order_version FROM catalogue_state WHERE id = 1) AS order_version`;

interface PageRows {
  icons: IconRecord[];
  /** Undefined when no row was read. */
  versions: CatalogueVersions | undefined;
}

/**
 * The rows of pages, read together: the pages of concurrent requests (lists, searches, batches)
 * are one statement per turn of the event loop (shared-loader.ts), as single icons are
 * (icon-detail.ts). Each request gets records of its own.
 */
const pageRows = perReads((reads) =>
  sharedLoader<readonly number[], PageRows>(async (pages) => {
    const ids = [...new Set(pages.flat())];
    const rows = await reads.rows<IconRow & { order_version: number }>(
      'icons_by_id',
      Prisma.sql`SELECT ${ICON_COLUMNS}, ${ORDER_VERSION} FROM icons i WHERE i.id = ANY(${ids}::int[]) AND i.published`,
    );
    const toRecord = await recordMaker(reads, rows);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const first = rows[0];
    const versions = first && { version: Number(first.catalogue_version), orderVersion: Number(first.order_version) };
    return pages.map((page) => ({
      icons: page.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toRecord(row)] : [];
      }),
      versions,
    }));
  }, MAX_PAGES_PER_STATEMENT),
);

/** The catalogue versions now: what an empty page from the list index is checked against (it has no rows to read them with). */
export async function readCatalogueVersions(reads: Reads): Promise<CatalogueVersions | undefined> {
  const [row] = await reads.rows<{ catalogue_version: number | null; order_version: number | null }>('catalogue_versions', Prisma.sql`SELECT ${CATALOGUE_VERSION}, ${ORDER_VERSION}`);
  return row?.catalogue_version == null ? undefined : { version: Number(row.catalogue_version), orderVersion: Number(row.order_version) };
}

/** Published icons by id, in the order of `ids` (ids that are not published are left out), with the catalogue versions they were read at (none for no rows). */
export function loadIconsAt(reads: Reads, ids: readonly number[]): Promise<PageRows> {
  return ids.length === 0 ? Promise.resolve({ icons: [], versions: undefined }) : pageRows(reads).load(ids);
}

/** Published icons by id, in the order of `ids` (ids that are not published are left out). */
export async function loadIconsInOrder(reads: Reads, ids: readonly number[]): Promise<IconRecord[]> {
  return (await loadIconsAt(reads, ids)).icons;
}

export interface ColorsAndKeywords {
  colors: string[];
  keywords: string[];
}

export interface TagRecord {
  slug: string;
  name: string;
  tagId: number;
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
    /** Colours and keywords, which icon records leave out (see ICON_COLUMNS). */
    colorsAndKeywords: new DataLoader<number, ColorsAndKeywords>(async (iconIds) => {
      const rows = await reads.rows<{ id: number; colors: string[] | null; keywords: string[] | null }>(
        'icon_colors_keywords',
        Prisma.sql`SELECT id, colors, keywords FROM icons WHERE id = ANY(${[...iconIds]}::int[])`,
      );
      const byId = new Map(rows.map((row) => [row.id, { colors: row.colors ?? [], keywords: row.keywords ?? [] }]));
      return iconIds.map((id) => byId.get(id) ?? new Error(`icon ${id} has no row`));
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
