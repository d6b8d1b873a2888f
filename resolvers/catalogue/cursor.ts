// Cursors for deep pages of `icons` (issue 14): `after` names the last icon of a page by its
// sort key, and the next page starts after it through the sort's index (a keyset condition),
// so page 10,000 costs what page 2 costs, where OFFSET reads and drops every row before it.
//
// A cursor is base64url JSON: [format, fingerprint, page, sort value, id]. The fingerprint is a
// digest of the filter, sort and page size it was made for, so a cursor taken to another list
// is refused rather than silently starting somewhere else. It is not signed: any position a
// client could forge is one it could reach by paging, and its values are bound, never spliced.
// `page` is the number of the page the cursor leads to, as counted when it was made, so `meta`
// keeps saying where a client is.
import { createHash } from 'node:crypto';
import { Prisma } from '../../prisma/generated/client.ts';
import { badInput } from '../errors.ts';
import type { IconFilter, SortKey } from './filters.ts';
import type { IconRecord } from './icon-records.ts';

const FORMAT = 1;
/** A name is at most a few hundred characters; a cursor is bounded well above what one can be. */
export const MAX_CURSOR_LENGTH = 1_000;

export interface CursorScope {
  filter: IconFilter;
  sort: SortKey;
  perPage: number;
}

/** Where a page starts: after the icon `id` whose sort value is `value`. */
export interface Keyset {
  page: number;
  value: number | string;
  id: number;
}

function fingerprint({ filter, sort, perPage }: CursorScope): string {
  const canonical = JSON.stringify([sort, perPage, filter.category ?? null, filter.tag ?? null, filter.style ?? null, filter.color ?? null, filter.license ?? null, filter.set ?? null]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
}

function sortValue(icon: IconRecord, sort: SortKey): number | string {
  switch (sort) {
    case 'popular':
      return icon.popularity;
    case 'downloads':
      return icon.downloads;
    case 'newest':
      return icon.publishedAt.toISOString();
    case 'az':
      return icon.name;
  }
}

/** The cursor of the page after the one that ends with `last`. */
export function encodeCursor(scope: CursorScope, last: IconRecord, nextPage: number): string {
  return Buffer.from(JSON.stringify([FORMAT, fingerprint(scope), nextPage, sortValue(last, scope.sort), last.id])).toString('base64url');
}

function valueFits(value: unknown, sort: SortKey): value is number | string {
  switch (sort) {
    case 'popular':
      return typeof value === 'number' && Number.isFinite(value);
    case 'downloads':
      return Number.isSafeInteger(value);
    case 'newest':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value) && Number.isFinite(Date.parse(value));
    case 'az':
      return typeof value === 'string' && !value.includes('\u0000');
  }
}

/** The keyset an `after` names; BAD_USER_INPUT when it is not a cursor of this very list. */
export function decodeCursor(after: string, scope: CursorScope): Keyset {
  const refuse = (why: string) => badInput('after', `after ${why}: use meta.next_cursor of the previous page, with the same filters, sort and page size`);
  if (after.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(after)) throw refuse('is not a cursor');
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw refuse('is not a cursor');
  }
  if (!Array.isArray(parts) || parts.length !== 5 || parts[0] !== FORMAT) throw refuse('is not a cursor');
  const [, print, page, value, id] = parts as [unknown, unknown, unknown, unknown, unknown];
  if (print !== fingerprint(scope)) throw refuse('was made for another list');
  if (!Number.isSafeInteger(page) || (page as number) < 2 || !Number.isSafeInteger(id) || (id as number) < 1 || !valueFits(value, scope.sort)) throw refuse('is not a cursor');
  return { page: page as number, value, id: id as number };
}

/**
 * Icons after the keyset in the sort's order (each order ends on the id ascending). Written as
 * "value at most/least, and past the id on ties" so PostgreSQL bounds the sort index's scan.
 */
export function keysetCondition(sort: SortKey, { value, id }: Keyset): Prisma.Sql {
  switch (sort) {
    case 'popular':
      return Prisma.sql`i.popularity <= ${value}::float8 AND (i.popularity < ${value}::float8 OR i.id > ${id}::int)`;
    case 'downloads':
      return Prisma.sql`i.downloads <= ${value}::int AND (i.downloads < ${value}::int OR i.id > ${id}::int)`;
    case 'newest':
      return Prisma.sql`i.published_at <= ${value}::timestamptz AND (i.published_at < ${value}::timestamptz OR i.id > ${id}::int)`;
    case 'az':
      return Prisma.sql`i.name >= ${value}::text AND (i.name > ${value}::text OR i.id > ${id}::int)`;
  }
}
