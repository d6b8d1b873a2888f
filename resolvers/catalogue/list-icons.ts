// `icons`: a filtered, sorted page of icon ids plus the total, in one statement (count-cache.ts:
// the total from memory when it was counted recently at the same catalogue version).
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import { pageWithTotal } from './count-cache.ts';
import { keysetCondition, type Keyset } from './cursor.ts';
import { filterCondition, offsetOf, SORT_ORDER, type IconFilter, type IdPage, type PageRequest, type SortKey, type TagMatch } from './filters.ts';

export interface ListRequest extends PageRequest {
  filter?: IconFilter;
  sort: SortKey;
  /** Start after this icon of the sort order (a cursor) instead of at an offset. */
  after?: Keyset;
}

/**
 * From this many icons on, a tag is common enough that walking the sort order finds a page
 * quickly; a rarer tag's icons are read first and sorted. PostgreSQL cannot tell the two apart
 * when it plans (a tag's size is unknown until the statement runs), and each way is a disaster
 * for the other kind: on the full catalogue, a page of a 167-icon tag by walking took 7.5 s,
 * a page of a 271,481-icon tag through its list 2.9 s. So the page statement holds both ways,
 * each behind a one-time condition on a bounded probe of the tag's size, and runs only one.
 */
export const COMMON_TAG_ICONS = 10_000;

function pageStatement(request: ListRequest): Prisma.Sql {
  const { filter, sort, after } = request;
  const offset = after ? 0 : offsetOf(request);
  const order = SORT_ORDER[sort];
  const where = (tagMatch?: TagMatch) => {
    const condition = filterCondition(filter, { tagMatch });
    return after ? Prisma.sql`${condition} AND ${keysetCondition(sort, after)}` : condition;
  };
  if (filter?.tag == null) {
    return Prisma.sql`SELECT i.id FROM icons i WHERE ${where()} ORDER BY ${order} LIMIT ${request.perPage} OFFSET ${offset}`;
  }
  const common = Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM icon_tags WHERE tag_id = (SELECT id FROM tags WHERE slug = ${filter.tag}) LIMIT ${COMMON_TAG_ICONS}) probe) = ${COMMON_TAG_ICONS}`;
  // Each way reads at most the rows up to the page's end, with the columns every sort order needs.
  const way = (condition: Prisma.Sql, when: Prisma.Sql) =>
    Prisma.sql`(SELECT i.id, i.popularity, i.published_at, i.downloads, i.name FROM icons i WHERE ${condition} AND ${when} ORDER BY ${order} LIMIT ${offset + request.perPage})`;
  return Prisma.sql`SELECT i.id FROM (${way(where('semi-join'), common)}
    UNION ALL ${way(where('id-list'), Prisma.sql`NOT ${common}`)}) i
    ORDER BY ${order} LIMIT ${request.perPage} OFFSET ${offset}`;
}

export function listIconIds(reads: Reads, request: ListRequest): Promise<IdPage> {
  const where = filterCondition(request.filter);
  return pageWithTotal(reads, pageStatement(request), Prisma.sql`SELECT count(*) AS total FROM icons i WHERE ${where}`, 'icons');
}
