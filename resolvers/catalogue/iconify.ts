// What Iconify's protocol reads of the catalogue (the gateway's iconify-protocol plugin shapes it
// into Iconify's formats): the icons and aliases of one set by name, a set's names by category,
// the sets with what Iconify's `info` says of them, and a search's icon names. The catalogue's
// rules hold here as everywhere: only published icons, and a premium icon's body only for a
// caller whose account owns it; to anyone else such an icon (and every alias of it) is absent,
// as an unknown name is, so the protocol answers `not_found` without telling the two apart. The
// lists (a set's names, a search, a set's samples) name a premium icon only to its owners.
import { Prisma } from '../../prisma/generated/client.ts';
import { perReads, type Reads } from '../../prisma/reads.ts';
import { safeSvgBody } from '../svg.ts';
import { loadIconsInOrder } from './icon-records.ts';
import { sharedLoader } from './shared-loader.ts';
import { searchIconIds } from './search/index.ts';

export interface IconifyIconData {
  name: string;
  /** Sanitized (svg.ts). */
  body: string;
  width: number;
  height: number;
  premium: boolean;
}

export interface IconifyAliasData {
  name: string;
  parent: string;
  rotate: number;
  hFlip: boolean;
  vFlip: boolean;
  width: number | null;
  height: number | null;
}

export interface IconifyIconsData {
  prefix: string;
  /** Unix seconds of the set's last import. */
  lastModified: number;
  /** Whether the set's icons have their own colours. */
  palette: boolean;
  icons: IconifyIconData[];
  /** The aliases of the names asked for and every alias their chains pass through. */
  aliases: IconifyAliasData[];
  /** The names asked for that the caller does not get, in the order asked. */
  notFound: string[];
}

interface IconsRow {
  /** The 1-based position of the row's request in its batch. */
  n: number;
  last_modified: number;
  multicolor: boolean;
  /** [name, parent, rotate, hFlip, vFlip, width, height] */
  aliases: [string, string, number, boolean, boolean, number | null, number | null][];
  /** [name, width, height, premium, body (null: premium and not owned), body mark] */
  icons: [string, number, number, boolean, string | null, string | null][];
}

/** One request's icons: a set, the names asked for in it, and whose they are (null: anonymous). */
interface IconsKey {
  prefix: string;
  names: readonly string[];
  accountId: number | null;
}

/** The most requests one statement carries. */
const MAX_REQUESTS_PER_STATEMENT = 32;

/**
 * One statement for a batch of requests `r` (one JSON parameter, as icon-detail.ts's lookups,
 * so that its generic plan is kept), each request's row made as a request alone made it: the
 * set, the aliases among the names with their chains (UNION stops a cycle), and the icons the
 * names and the chains end at, with their bodies when the request's account may have them.
 */
function iconsStatement(keys: readonly IconsKey[]): Prisma.Sql {
  const requests = JSON.stringify(keys.map((key, index) => ({ n: index + 1, prefix: key.prefix, names: key.names, account_id: key.accountId })));
  return Prisma.sql`
    SELECT r.n, x.* FROM json_to_recordset(${requests}::json) AS r(n int, prefix text, names text[], account_id int)
    CROSS JOIN LATERAL (
      WITH RECURSIVE s AS (SELECT id, imported_at, multicolor FROM icon_sets WHERE prefix = r.prefix),
      chain AS (
        SELECT a.name, a.parent, a.rotate, a.h_flip, a.v_flip, a.width, a.height
          FROM icon_aliases a JOIN s ON a.set_id = s.id WHERE a.name = ANY(r.names)
        UNION
        SELECT a.name, a.parent, a.rotate, a.h_flip, a.v_flip, a.width, a.height
          FROM chain c JOIN s ON true JOIN icon_aliases a ON a.set_id = s.id AND a.name = c.parent
      )
      SELECT floor(extract(epoch FROM s.imported_at))::int AS last_modified, s.multicolor,
        (SELECT coalesce(json_agg(json_build_array(c.name, c.parent, c.rotate, c.h_flip, c.v_flip, c.width, c.height)), '[]') FROM chain c) AS aliases,
        (SELECT coalesce(json_agg(json_build_array(i.source_name, i.width, i.height, i.premium,
                  CASE WHEN i.premium AND NOT EXISTS (SELECT 1 FROM ownership o WHERE o.account_id = r.account_id AND o.icon_id = i.id) THEN NULL ELSE i.body END,
                  i.body_mark)), '[]')
           FROM icons i
          WHERE i.set_id = s.id AND i.published
            AND i.source_name = ANY(r.names || ARRAY(SELECT parent FROM chain))) AS icons
      FROM s) x`;
}

/**
 * Concurrent requests' icons read together (shared-loader.ts), as single icons are
 * (icon-detail.ts): under load, one statement's socket write, backend wake-up and executor start
 * serve every request parsed in the same turn of the event loop.
 */
const iconsLoaderOf = perReads((reads: Reads) =>
  sharedLoader<IconsKey, IconsRow | undefined>(async (keys) => {
    const rows = await reads.rows<IconsRow>('iconify_icons', iconsStatement(keys));
    const byRequest = new Map(rows.map((row) => [row.n, row]));
    return keys.map((_, index) => byRequest.get(index + 1));
  }, MAX_REQUESTS_PER_STATEMENT),
);

/**
 * The icons of set `prefix` named `names` as Iconify resolves them (an icon's own name wins over
 * an alias of the same name; an alias reaches its icon through other aliases), for the account
 * `accountId` (null: anonymous). Undefined when no set has the prefix.
 */
export async function iconifyIcons(reads: Reads, prefix: string, names: readonly string[], accountId: number | null): Promise<IconifyIconsData | undefined> {
  // A text PostgreSQL cannot hold matches nothing, and in the batch's JSON it would fail the other requests' with it.
  if (!storable(prefix)) return undefined;
  const row = await iconsLoaderOf(reads).load({ prefix, names: names.filter(storable), accountId });
  if (!row) return undefined;
  const delivered = new Map<string, IconifyIconData>();
  for (const [name, width, height, premium, body, mark] of row.icons) {
    if (body !== null) delivered.set(name, { name, body: safeSvgBody(body, mark), width, height, premium });
  }
  const aliasOf = new Map<string, IconifyAliasData>();
  for (const [name, parent, rotate, hFlip, vFlip, width, height] of row.aliases) {
    if (!delivered.has(name)) aliasOf.set(name, { name, parent, rotate, hFlip, vFlip, width, height });
  }
  const icons = new Map<string, IconifyIconData>();
  const aliases = new Map<string, IconifyAliasData>();
  const notFound: string[] = [];
  for (const name of names) {
    const icon = delivered.get(name);
    if (icon) {
      icons.set(name, icon);
      continue;
    }
    const chain = aliasChain(name, aliasOf, delivered);
    if (!chain) {
      if (!notFound.includes(name)) notFound.push(name);
      continue;
    }
    for (const alias of chain.aliases) aliases.set(alias.name, alias);
    icons.set(chain.icon.name, chain.icon);
  }
  return { prefix, lastModified: row.last_modified, palette: row.multicolor, icons: [...icons.values()], aliases: [...aliases.values()], notFound };
}

/** The aliases from `name` to the icon its chain ends at; undefined when it ends nowhere the caller may go. */
function aliasChain(name: string, aliasOf: Map<string, IconifyAliasData>, delivered: Map<string, IconifyIconData>) {
  const passed: IconifyAliasData[] = [];
  let current = name;
  for (;;) {
    const icon = delivered.get(current);
    if (icon) return passed.length ? { aliases: passed, icon } : undefined;
    const alias = aliasOf.get(current);
    if (!alias || passed.includes(alias)) return undefined;
    passed.push(alias);
    current = alias.parent;
  }
}

/** PostgreSQL text holds neither NUL nor half of a surrogate pair: such a name matches nothing. */
const storable = (text: string) => !text.includes('\u0000') && !/\p{Cs}/u.test(text);

export interface IconifySetData {
  prefix: string;
  name: string;
  /** Published free icons: what anyone may have of it. */
  total: number;
  author: string;
  authorUrl: string | null;
  licenseTitle: string;
  licenseSpdx: string | null;
  licenseUrl: string | null;
  /** The first published free icons by name. */
  samples: string[];
  /** The height most of its icons have. */
  height: number | null;
  palette: boolean;
  premium: boolean;
  lastModified: number;
}

interface SetRow {
  prefix: string;
  name: string;
  total: number;
  author: string;
  author_url: string | null;
  license_title: string;
  license_spdx: string | null;
  license_url: string | null;
  samples: string[];
  height: number | null;
  multicolor: boolean;
  premium: boolean;
  last_modified: number;
}

/** How many sample names a set's info shows (Iconify's sets show three). */
const SAMPLES = 3;

/** Every set with published icons, by prefix; with `prefix`, that one set only. */
export async function iconifySets(reads: Reads, prefix?: string): Promise<IconifySetData[]> {
  const only = prefix === undefined ? Prisma.empty : Prisma.sql`AND s.prefix = ${prefix}`;
  const rows = await reads.rows<SetRow>(
    prefix === undefined ? 'iconify_sets' : 'iconify_set',
    Prisma.sql`
      SELECT s.prefix, s.name, s.free_icon_count AS total, s.author, s.author_url, s.license_title, s.license_spdx, s.license_url,
        s.multicolor, s.premium, floor(extract(epoch FROM s.imported_at))::int AS last_modified,
        ARRAY(SELECT i.source_name FROM icons i WHERE i.set_id = s.id AND i.published AND NOT i.premium ORDER BY i.source_name LIMIT ${SAMPLES}) AS samples,
        s.common_height AS height
      FROM icon_sets s
      WHERE s.icon_count > 0 ${only}
      ORDER BY s.prefix`,
  );
  return rows.map((row) => ({
    prefix: row.prefix,
    name: row.name,
    total: row.total,
    author: row.author,
    authorUrl: row.author_url,
    licenseTitle: row.license_title,
    licenseSpdx: row.license_spdx,
    licenseUrl: row.license_url,
    samples: row.samples,
    height: row.height,
    palette: row.multicolor,
    premium: row.premium,
    lastModified: row.last_modified,
  }));
}

export interface IconifyCollectionData {
  set: IconifySetData;
  /** Category names with their icons' names, by category name. */
  categories: { name: string; icons: string[] }[];
  /** Alias name -> the name it points at, for aliases of published icons. */
  aliases: { name: string; parent: string }[];
}

/** A premium icon `i` is listed only for an account that owns it (null: anonymous, no premium icon). */
const listedFor = (accountId: number | null) =>
  Prisma.sql`(NOT i.premium OR EXISTS (SELECT 1 FROM ownership o WHERE o.account_id = ${accountId}::int AND o.icon_id = i.id))`;

/**
 * A set's published icon names by category, and its aliases, premium icons' only for an account
 * that owns them (`accountId`; null: anonymous); undefined when no set with icons has the prefix.
 */
export async function iconifyCollection(reads: Reads, prefix: string, accountId: number | null): Promise<IconifyCollectionData | undefined> {
  const [set] = await iconifySets(reads, prefix);
  if (!set) return undefined;
  const [names, aliases] = await Promise.all([
    reads.rows<{ category_name: string; names: string[] }>(
      'iconify_collection_names',
      Prisma.sql`
        SELECT i.category_name, array_agg(i.source_name ORDER BY i.source_name) AS names
        FROM icons i JOIN icon_sets s ON s.id = i.set_id
        WHERE s.prefix = ${prefix} AND i.published AND ${listedFor(accountId)}
        GROUP BY i.category_name ORDER BY i.category_name`,
    ),
    reads.rows<{ name: string; parent: string }>(
      'iconify_collection_aliases',
      Prisma.sql`
        SELECT a.name, a.parent FROM icon_aliases a JOIN icon_sets s ON s.id = a.set_id JOIN icons i ON i.id = a.icon_id
        WHERE s.prefix = ${prefix} AND i.published AND ${listedFor(accountId)} ORDER BY a.name`,
    ),
  ]);
  return { set, categories: names.map((row) => ({ name: row.category_name, icons: row.names })), aliases };
}

/**
 * The entries of the set's characters map that name an icon or alias of `collection` (what its
 * caller may see listed), in the map's order.
 */
export async function iconifyChars(reads: Reads, collection: IconifyCollectionData): Promise<{ char: string; name: string }[]> {
  const [row] = await reads.rows<{ chars: Record<string, string> | null }>('iconify_chars', Prisma.sql`SELECT chars FROM icon_sets WHERE prefix = ${collection.set.prefix}`);
  if (!row?.chars) return [];
  const listed = new Set([...collection.categories.flatMap((category) => category.icons), ...collection.aliases.map((alias) => alias.name)]);
  return Object.entries(row.chars)
    .filter(([, name]) => listed.has(name))
    .map(([char, name]) => ({ char, name }));
}

export interface IconifySearchRequest {
  query: string;
  limit: number;
  /** Set prefixes; undefined: every set. */
  prefixes?: readonly string[] | undefined;
  /** A category slug. */
  category?: string | undefined;
}

/**
 * The first `limit` matches of a search in relevance order, as `prefix:name`: free icons, and
 * premium ones only for an account that owns them (`accountId`; null: anonymous, free icons
 * only). For an account, premium matches it does not own are dropped from the page, so it may
 * hold fewer than `limit` names.
 */
export async function iconifySearch(reads: Reads, request: IconifySearchRequest, accountId: number | null): Promise<string[]> {
  const filter = { set: request.prefixes ?? null, category: request.category ?? null, license: accountId === null ? ('free' as const) : null };
  const { ids } = await searchIconIds(reads, { q: request.query, page: 1, perPage: request.limit, filter });
  const icons = await loadIconsInOrder(reads, ids);
  const premium = icons.filter((icon) => icon.premium).map((icon) => icon.id);
  const owned = new Set(
    premium.length === 0 || accountId === null
      ? []
      : (await reads.rows<{ icon_id: number }>('iconify_search_owned', Prisma.sql`SELECT icon_id FROM ownership WHERE account_id = ${accountId}::int AND icon_id = ANY(${premium}::int[])`)).map((row) => row.icon_id),
  );
  return icons.filter((icon) => !icon.premium || owned.has(icon.id)).map((icon) => `${icon.set.prefix}:${icon.sourceName}`);
}
