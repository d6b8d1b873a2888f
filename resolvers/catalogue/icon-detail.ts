// A single icon and what its detail shows: its record, its tags, its markup when the caller may
// have it, and whether the caller owns it, in one statement (it was three; the statements'
// fixed cost was most of a single-icon miss).
//
// The lookups of concurrent requests are read together: every lookup of one kind (by id or
// slug, by file address) made while the event loop handles one batch of sockets goes out as one
// statement, its lookups a list of (name, account, release) rows joined to the icons, and each
// request gets the row of its own lookup, with ownership and markup decided for its own account
// in SQL as before. A single-icon miss paid a socket write to PostgreSQL (a large part of the
// gateway's busy time in a CPU profile), a wake-up of a backend and an executor start; under
// load those are now shared by the lookups that arrive together. A lookup made alone is one
// statement, as before.
import type DataLoader from 'dataloader';
import { Prisma } from '../../prisma/generated/client.ts';
import { perReads, type Reads } from '../../prisma/reads.ts';
import { safeSvgBody } from '../svg.ts';
import { sharedLoader } from './shared-loader.ts';
import { ICON_COLUMNS, recordMaker, type IconRecord, type IconRow, type TagRecord } from './icon-records.ts';

/** A single icon and what its detail shows, read together. */
export interface IconDetail {
  icon: IconRecord;
  tags: TagRecord[];
  /** Whether the caller's account owns the icon (false for anonymous callers). */
  owned: boolean;
  /** The SVG body, sanitized; only for a free icon or one the caller owns (premium markup never leaves the database for others). */
  body: string | null;
}

/** How a single icon is named: by numeric id or slug (`/icons/{ref}`), or by its set and its name there (a file's address). */
export type IconLookup = { ref: string } | { prefix: string; name: string };

/** Whether `/icons/{ref}` names an icon by its numeric id (else by its slug). */
export const isIdRef = (ref: string): boolean => /^\d{1,9}$/.test(ref);

/**
 * Lookups of one kind share a statement: `/icons/{ref}` by id and by slug together (each row
 * carries one of the two, and the icon is found through either unique index), files apart.
 */
type LookupKind = 'ref' | 'file';

interface DetailKey {
  lookup: IconLookup;
  accountId: number | null;
  /** A file request with a signature: the body of a premium icon is read whoever asks (the resolver checks the signature before anything leaves the gateway). */
  releasePremiumBody: boolean;
}

interface IconDetailRow extends IconRow {
  /** The 1-based position of the row's lookup in the statement's list. */
  key_index: number;
  /** [tag id, slug, name] in the tags' display order. */
  tags: [number, string, string][] | string;
  owned: boolean;
  body: string | null;
  body_mark: string | null;
}

/** The most lookups one statement carries. */
const MAX_LOOKUPS_PER_STATEMENT = 64;

/** A ref names an icon by id when it is numeric, else by slug: the row's other column stays NULL. */
function refColumns(ref: string): { icon_id: number | null; slug: string | null } {
  return isIdRef(ref) ? { icon_id: Number(ref), slug: null } : { icon_id: null, slug: ref };
}

/**
 * The lookups of a batch as rows `k` (the lookup's own columns, account_id, release, n), and how
 * an icon matches one. The list is one JSON parameter rather than arrays for unnest: PostgreSQL
 * sizes unnest's rows from the arrays when it plans for the values but not in a generic plan, so
 * every custom plan (a batch of 1 to 10) looked cheaper than the generic one and the statement
 * was planned on every execution; json_to_recordset is sized alike both ways (its 100 rows), and
 * the generic plan is kept after five executions, as for the other point lookups.
 */
function lookupRows(kind: LookupKind, keys: readonly DetailKey[]): { rows: Prisma.Sql; joins: Prisma.Sql; match: Prisma.Sql } {
  const common = (key: DetailKey, index: number) => ({ account_id: key.accountId, release: key.releasePremiumBody, n: index + 1 });
  const ref = (key: DetailKey) => ('ref' in key.lookup ? key.lookup.ref : '');
  const list = (rows: object[]) => JSON.stringify(rows);
  switch (kind) {
    case 'ref':
      return {
        rows: Prisma.sql`json_to_recordset(${list(keys.map((key, index) => ({ ...refColumns(ref(key)), ...common(key, index) })))}::json)
                         AS k(icon_id int, slug text, account_id int, release bool, n int)`,
        joins: Prisma.empty,
        // Either side is NULL for a row, so it matches through the other (a BitmapOr of the two unique indexes).
        match: Prisma.sql`(i.id = k.icon_id OR i.slug = k.slug)`,
      };
    case 'file':
      return {
        rows: Prisma.sql`json_to_recordset(${list(keys.map((key, index) => ({ ...('prefix' in key.lookup ? { prefix: key.lookup.prefix, source_name: key.lookup.name } : {}), ...common(key, index) })))}::json)
                         AS k(prefix text, source_name text, account_id int, release bool, n int)`,
        joins: Prisma.sql`JOIN icon_sets s ON s.id = i.set_id`,
        match: Prisma.sql`s.prefix = k.prefix AND i.source_name = k.source_name`,
      };
  }
}

/**
 * The statement of a batch of lookups. Tags come as one JSON array in the order the tags loader
 * gives them (name, then slug). The body of a premium icon stays in the database unless the
 * lookup's own account owns it or the lookup releases it.
 */
function detailsStatement(kind: LookupKind, keys: readonly DetailKey[]): Prisma.Sql {
  const { rows, joins, match } = lookupRows(kind, keys);
  return Prisma.sql`
    SELECT k.n AS key_index, ${ICON_COLUMNS},
      (SELECT coalesce(json_agg(json_build_array(t.id, t.slug, t.name) ORDER BY t.name, t.slug), '[]')
         FROM icon_tags it JOIN tags t ON t.id = it.tag_id WHERE it.icon_id = i.id AND NOT it.of_set) AS tags,
      o.owned, CASE WHEN i.premium AND NOT o.owned AND NOT k.release THEN NULL ELSE i.body END AS body, i.body_mark
    FROM ${rows}
    JOIN icons i ON i.published ${joins}
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM ownership WHERE account_id = k.account_id AND icon_id = i.id) AS owned) o
    WHERE ${match}`;
}

function toDetail(row: IconDetailRow, toRecord: (row: IconRow) => IconRecord): IconDetail {
  const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as [number, string, string][]) : row.tags;
  const body = row.body === null ? null : safeSvgBody(row.body, row.body_mark);
  return { icon: toRecord(row), tags: tags.map(([tagId, slug, name]) => ({ slug, name, tagId })), owned: row.owned, body };
}

type DetailLoaders = Record<LookupKind, DataLoader<DetailKey, IconDetail | undefined>>;

function createDetailLoaders(reads: Reads): DetailLoaders {
  const loader = (kind: LookupKind) =>
    sharedLoader<DetailKey, IconDetail | undefined>(async (keys) => {
      const rows = await reads.rows<IconDetailRow>(`icon_details_by_${kind}`, detailsStatement(kind, keys));
      const toRecord = await recordMaker(reads, rows);
      const found = new Map(rows.map((row) => [row.key_index, row]));
      return keys.map((_, index) => {
        const row = found.get(index + 1);
        return row && toDetail(row, toRecord);
      });
    }, MAX_LOOKUPS_PER_STATEMENT);
  return { ref: loader('ref'), file: loader('file') };
}

/** Each database's loaders (its reads object), made on first use. */
const loadersOf = perReads(createDetailLoaders);

/**
 * Whether a name can be in the database: PostgreSQL text holds neither NUL nor half of a
 * surrogate pair (the JSON of a batch would carry it as an escape that PostgreSQL refuses,
 * failing the other lookups of its statement with it).
 */
const storable = (text: string) => !text.includes('\u0000') && !/\p{Cs}/u.test(text);

/** The kind of a lookup; undefined when nothing can match. */
function kindOf(lookup: IconLookup): LookupKind | undefined {
  if ('ref' in lookup) {
    return storable(lookup.ref) ? 'ref' : undefined;
  }
  return storable(lookup.prefix) && storable(lookup.name) ? 'file' : undefined;
}

/** One published icon, with its tags, its markup when the caller may have it, and the caller's ownership. */
export async function loadIconDetail(reads: Reads, lookup: IconLookup, accountId: number | null, { releasePremiumBody = false } = {}): Promise<IconDetail | undefined> {
  const kind = kindOf(lookup);
  if (!kind) return undefined;
  return loadersOf(reads)[kind].load({ lookup, accountId, releasePremiumBody });
}
