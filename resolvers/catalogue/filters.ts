// The filters and sorts shared by `icons` and `search`, as SQL over `icons i`. One place, so
// a list and a search with the same filter always agree.
import { Prisma } from '../../prisma/generated/client.ts';

export const SORT_KEYS = ['popular', 'newest', 'downloads', 'az'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const LICENSES = ['free', 'premium'] as const;
export type License = (typeof LICENSES)[number];

export interface IconFilter {
  /** Category slug. */
  category?: string | null;
  /** Tag slug. */
  tag?: string | null;
  style?: string | null;
  /** `monochrome`, `multicolor` or a colour name such as `red`. */
  color?: string | null;
  license?: License | null;
  /** Icon set prefixes: icons of any of them. */
  set?: readonly string[] | null;
}

/**
 * How a tag filter is matched: `semi-join` lets PostgreSQL probe the tag's links row by row
 * (fast when the tag is common and a sort order is walked), `id-list` reads the tag's icons
 * first (fast when it is rare). Both match the same icons.
 */
export type TagMatch = 'semi-join' | 'id-list';

/** Published icons matching every given filter. Unknown values simply match nothing. */
export function filterCondition(filter: IconFilter = {}, { tagMatch = 'semi-join' }: { tagMatch?: TagMatch } = {}): Prisma.Sql {
  const conditions = [Prisma.sql`i.published`];
  if (filter.category != null) conditions.push(Prisma.sql`i.category_id = (SELECT id FROM categories WHERE slug = ${filter.category})`);
  if (filter.tag != null) {
    const tagIcons = Prisma.sql`SELECT it.icon_id FROM icon_tags it WHERE it.tag_id = (SELECT id FROM tags WHERE slug = ${filter.tag})`;
    conditions.push(tagMatch === 'id-list' ? Prisma.sql`i.id = ANY(ARRAY(${tagIcons}))` : Prisma.sql`i.id IN (${tagIcons})`);
  }
  if (filter.style != null) conditions.push(Prisma.sql`i.style = ${filter.style}`);
  if (filter.color != null) conditions.push(Prisma.sql`i.colors @> ARRAY[${filter.color}]::text[]`);
  if (filter.license != null) conditions.push(Prisma.sql`i.premium = ${filter.license === 'premium'}`);
  if (filter.set != null) conditions.push(Prisma.sql`i.set_id IN (SELECT id FROM icon_sets WHERE prefix = ANY(${[...filter.set]}::text[]))`);
  return Prisma.join(conditions, ' AND ');
}

/** The names of the filters given a value. */
export function givenFilters(filter: IconFilter = {}): (keyof IconFilter)[] {
  return (Object.keys(filter) as (keyof IconFilter)[]).filter((key) => filter[key] != null);
}

/** Whether a filter keeps every published icon. */
export function isUnfiltered(filter: IconFilter = {}): boolean {
  return givenFilters(filter).length === 0;
}

/**
 * Each sort's order, column by column: the one definition that list statements and the list
 * index's orders (list-index/snapshot.ts) both read. Every order ends on the id so pages never
 * overlap.
 */
const SORT_COLUMNS: Record<SortKey, readonly (readonly [column: string, direction: 'ASC' | 'DESC'])[]> = {
  popular: [['popularity', 'DESC'], ['id', 'ASC']],
  newest: [['published_at', 'DESC'], ['id', 'ASC']],
  downloads: [['downloads', 'DESC'], ['id', 'ASC']],
  az: [['name', 'ASC'], ['id', 'ASC']],
};

/** The ORDER BY terms of `sort`, its columns qualified by `alias` when one is given. */
export function sortOrderTerms(sort: SortKey, alias?: string): string {
  return SORT_COLUMNS[sort].map(([column, direction]) => `${alias ? `${alias}.` : ''}${column} ${direction}`).join(', ');
}

/** ORDER BY terms of each sort, on icons as `i`. */
export const SORT_ORDER = Object.fromEntries(SORT_KEYS.map((sort) => [sort, Prisma.raw(sortOrderTerms(sort, 'i'))])) as Record<SortKey, Prisma.Sql>;

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface IdPage {
  ids: number[];
  total: number;
}

export function offsetOf({ page, perPage }: PageRequest): number {
  return (page - 1) * perPage;
}
