// `icons`: a filtered, sorted page of icons plus the total. From the list index (list-index/)
// when it holds at the catalogue versions the page's rows were read at; otherwise by SQL: the
// page's ids and the total in one statement (count-cache.ts: the total from memory when it was
// counted recently at the same catalogue version), then the page's rows.
import { Prisma } from '../../prisma/generated/client.ts';
import type { Reads } from '../../prisma/reads.ts';
import { pageWithTotal } from './count-cache.ts';
import { loadIconsAt, loadIconsInOrder, readCatalogueVersions, type IconRecord } from './icon-records.ts';
import { holdsAt, listIndexOf } from './list-index/index.ts';
import { keysetCondition, type Keyset } from './cursor.ts';
import { filterCondition, givenFilters, isUnfiltered, offsetOf, SORT_ORDER, type IconFilter, type IdPage, type PageRequest, type SortKey, type TagMatch } from './filters.ts';

export interface ListRequest extends PageRequest {
  filter?: IconFilter;
  sort: SortKey;
  /** Start after this icon of the sort order (a cursor) instead of at an offset. */
  after?: Keyset;
}

/**
 * A filtered list's page is read one of two ways, chosen by its total (counted in the same
 * statement, or kept): up to this many matches, all of them are read and sorted; beyond, the
 * sort order is walked until the page is full. PostgreSQL cannot choose by itself: it guesses
 * the number of matches of combined filters (and of a tag) by assuming they are independent,
 * and each way is a disaster for the other kind. On the full catalogue, walking the newest
 * `regular` icons for a `pink` one (there are none) took 316 ms, where reading the matches took
 * 19; a page of a 167-icon tag by walking took 7.5 s, a page of a 271,481-icon tag through its
 * list 2.9 s. The statement holds both ways, each behind a one-time condition on the total, and
 * runs only one.
 */
export const FEW_MATCHES = 10_000;

/**
 * Whether the sort order itself finds the page: no filter (the sort's own index), or one
 * category or one style alone (a range of its `(category_id | style, <sort>, id)` index,
 * migration 20261123210831_list_filter_sort_indexes), or the premium icons alone (their own
 * index per sort order, migration *_premium_sort_indexes). Then the page costs the rows up to its
 * end whatever the total, and reading every match instead is the expensive way (a page of a
 * common style by name read the whole table, where the index range reads a page's rows).
 */
function sortOrderFindsPage(filter: IconFilter = {}): boolean {
  if (isUnfiltered(filter)) return true;
  const given = givenFilters(filter);
  return given.length === 1 && (given[0] === 'category' || given[0] === 'style' || (given[0] === 'license' && filter.license === 'premium'));
}

/**
 * Filters that the sort orders' own indexes can check (colour and license: their INCLUDE columns,
 * migration *_list_sort_covering_indexes). Walking such an index reads index entries only, about
 * much cheaper than fetching an icon row, so the walk wins from far fewer matches.
 */
export const FEW_COVERED_MATCHES = 1_000;

function coveredBySortIndex(filter: IconFilter = {}): boolean {
  return givenFilters(filter).every((key) => key === 'color' || key === 'license');
}

function pageStatement(request: ListRequest, total: Prisma.Sql): Prisma.Sql {
  const { filter, sort, after } = request;
  const offset = after ? 0 : offsetOf(request);
  const order = SORT_ORDER[sort];
  const where = (tagMatch?: TagMatch) => {
    const condition = filterCondition(filter, { tagMatch });
    return after ? Prisma.sql`${condition} AND ${keysetCondition(sort, after)}` : condition;
  };
  if (sortOrderFindsPage(filter)) {
    return Prisma.sql`SELECT i.id FROM icons i WHERE ${where()} ORDER BY ${order} LIMIT ${request.perPage} OFFSET ${offset}`;
  }
  // Each way reads at most the rows up to the page's end, with the columns every sort order needs.
  const columns = Prisma.sql`i.id, i.popularity, i.published_at, i.downloads, i.name`;
  const end = offset + request.perPage;
  const few = coveredBySortIndex(filter) ? FEW_COVERED_MATCHES : FEW_MATCHES;
  // MATERIALIZED: every match is read (by its indexes' bitmaps), then sorted.
  const readAll = Prisma.sql`(WITH matched AS MATERIALIZED (SELECT ${columns} FROM icons i WHERE ${where('id-list')})
    SELECT * FROM matched i WHERE ${total} <= ${few} ORDER BY ${order} LIMIT ${end})`;
  const walk = Prisma.sql`(SELECT ${columns} FROM icons i WHERE ${where('semi-join')} AND ${total} > ${few} ORDER BY ${order} LIMIT ${end})`;
  return Prisma.sql`SELECT i.id FROM (${readAll} UNION ALL ${walk}) i ORDER BY ${order} LIMIT ${request.perPage} OFFSET ${offset}`;
}

export function listIconIds(reads: Reads, request: ListRequest): Promise<IdPage> {
  // A tag's icons as a list of ids: PostgreSQL cannot know how many icons a tag has before the
  // statement runs (the tag is looked up by slug inside it), guesses a few thousand, and for
  // that many preferred hashing every published icon's index entry (60 ms) to looking up the
  // tag's icons one by one (a typical tag has a few hundred: under 1 ms).
  const where = filterCondition(request.filter, { tagMatch: 'id-list' });
  const offset = request.after ? undefined : offsetOf(request);
  return pageWithTotal(reads, (total) => pageStatement(request, total), Prisma.sql`SELECT count(*) AS total FROM icons i WHERE ${where}`, 'icons', undefined, { offset });
}

export interface ListPage {
  icons: IconRecord[];
  total: number;
}

/** A list page's icons and total; a page after a cursor, and any page the index cannot vouch for, by SQL. */
export async function listPage(reads: Reads, request: ListRequest): Promise<ListPage> {
  if (!request.after) {
    const index = listIndexOf(reads);
    const indexed = index.page({ filter: request.filter, sort: request.sort, offset: offsetOf(request), perPage: request.perPage });
    if (indexed) {
      // An empty page (a filter nothing matches, a page past the last) has no rows to tell the
      // versions by: they are read alone. Answered by SQL, such pages took most of PostgreSQL's time
      // in the bench's list misses.
      const { icons, versions } = indexed.ids.length > 0 ? await loadIconsAt(reads, indexed.ids) : { icons: [], versions: await readCatalogueVersions(reads) };
      if (holdsAt(indexed, versions)) return { icons, total: indexed.total };
      index.outdated(versions);
    }
  }
  const { ids, total } = await listIconIds(reads, request);
  return { icons: await loadIconsInOrder(reads, ids), total };
}
