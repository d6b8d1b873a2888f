// Writes one mapped set into the database, in one transaction: a failure anywhere leaves the
// set exactly as it was. Icons are upserted by (set, source name), so ids and slugs survive
// re-imports; rows are only rewritten when a value changed; icons that left the source are
// unpublished, never deleted (ownership and links to them stay valid). The catalogue's version
// goes up with the set, so cached totals and the search data know they are behind.
import { sanitizedMark } from '../../lib/svg/sanitize.ts';
import { Prisma, type PrismaClient } from '../generated/client.ts';
import { matchesAny } from './catalogue-config.ts';
import { aliasChanges, storedAliases, type MappedAlias } from './aliases.ts';
import type { MappedIcon, MappedSet, NamedRef } from './map-set.ts';

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** Icons per statement; a batch also ends early once its SVG bodies pass BATCH_BYTES. */
export const BATCH_SIZE = 1000;
/** Some sets have bodies of tens of kilobytes (fluent-emoji: 104 MB of JSON); bounding the
 *  bytes per statement keeps the import's memory flat whatever the set. */
export const BATCH_BYTES = 2 * 1024 * 1024;

/** Consecutive slices of at most BATCH_SIZE icons and (unless one icon alone is larger) BATCH_BYTES of body. */
export function* batches(icons: readonly MappedIcon[]): Generator<MappedIcon[]> {
  let start = 0;
  while (start < icons.length) {
    let end = start;
    let bytes = 0;
    while (end < icons.length && end - start < BATCH_SIZE && (end === start || bytes + icons[end]!.body.length <= BATCH_BYTES)) {
      bytes += icons[end]!.body.length;
      end++;
    }
    yield icons.slice(start, end);
    start = end;
  }
}

export interface WriteProgress {
  prefix: string;
  /** Icons handled so far (written, or found unchanged). */
  iconsDone: number;
  iconsTotal: number;
}

export interface WriteResult {
  setId: number;
  iconsWritten: number;
  unpublished: number;
  renamed: number;
  /** Alias rows inserted, changed or deleted. */
  aliasesWritten: number;
}

/** Account name -> "*" (the whole set, now and after later imports) or icon names and globs. */
export type OwnersConfig = Record<string, '*' | readonly string[]>;

export interface WriteSetInput {
  set: MappedSet;
  icons: MappedIcon[];
  digest: string;
  /** Old name -> new name: the icon of the old name becomes the new one's (same id, slug, downloads, owners). */
  renames?: Record<string, string>;
  owners?: OwnersConfig;
  /** The set's aliases: its rows in `icon_aliases` become exactly these. */
  aliases?: readonly MappedAlias[];
  onProgress?: (progress: WriteProgress) => void;
}

/** What an import of the set would change: icon names added, changed, removed (unpublished) and renamed, and alias names. */
export interface SetPlan {
  added: string[];
  changed: string[];
  removed: string[];
  renamed: [from: string, to: string][];
  aliases: { added: string[]; changed: string[]; removed: string[] };
}

/** The renames that apply: the old name has a row, the new one has none yet and is in the source. */
function applicableRenames(renames: Record<string, string> | undefined, existing: ReadonlySet<string>, incoming: ReadonlySet<string>): [string, string][] {
  return Object.entries(renames ?? {}).filter(([from, to]) => existing.has(from) && !existing.has(to) && incoming.has(to));
}

/** Compares the set's rows with the mapped icons; reads only. */
export async function planSet(prisma: PrismaClient, input: Pick<WriteSetInput, 'set' | 'icons' | 'renames' | 'aliases'>): Promise<SetPlan> {
  const rows = await prisma.$queryRawUnsafe<{ source_name: string; published: boolean; body: string; name: string; premium: boolean; style: string; keywords: string[]; tag_names: string[]; category_name: string }[]>(
    `SELECT i.source_name, i.published, i.body, i.name, i.premium, i.style, i.keywords, i.tag_names, i.category_name
     FROM icons i JOIN icon_sets s ON s.id = i.set_id WHERE s.prefix = $1`,
    input.set.prefix,
  );
  const existing = new Map(rows.map((row) => [row.source_name, row]));
  const incoming = new Map(input.icons.filter((icon) => icon.published).map((icon) => [icon.sourceName, icon]));
  const renamed = applicableRenames(input.renames, new Set(existing.keys()), new Set(incoming.keys()));
  for (const [from, to] of renamed) {
    existing.set(to, existing.get(from)!);
    existing.delete(from);
  }
  const plan: SetPlan = { added: [], changed: [], removed: [], renamed, aliases: aliasChanges(await storedAliases(prisma, input.set.prefix), input.aliases ?? []) };
  for (const [name, icon] of incoming) {
    const row = existing.get(name);
    if (!row?.published) plan.added.push(name);
    else if (
      row.body !== icon.body ||
      row.name !== icon.name ||
      row.premium !== icon.premium ||
      row.style !== icon.style ||
      row.keywords.join('\n') !== icon.keywords.join('\n') ||
      row.tag_names.join('\n') !== icon.tags.map((tag) => tag.name).join('\n')
    ) {
      plan.changed.push(name);
    }
  }
  for (const [name, row] of existing) if (row.published && !incoming.has(name)) plan.removed.push(name);
  return plan;
}

export async function writeSet(prisma: PrismaClient, input: WriteSetInput): Promise<WriteResult> {
  return prisma.$transaction(async (tx) => writeSetIn(tx, input), { timeout: 30 * 60_000, maxWait: 60_000 });
}

async function writeSetIn(tx: Transaction, { set, icons, digest, renames, owners, aliases = [], onProgress }: WriteSetInput): Promise<WriteResult> {
  const setId = await upsertSetRow(tx, set, digest, protocolCounts(icons));
  const renamed = await applyRenames(tx, setId, icons, renames);
  await upsertNamed(tx, 'categories', uniqueBySlug(icons.map((icon) => icon.category)));
  await upsertNamed(tx, 'tags', uniqueBySlug(icons.flatMap((icon) => icon.tags)));
  const slugs = await resolveSlugs(tx, setId, set.prefix, icons);

  let iconsWritten = 0;
  let iconsDone = 0;
  for (const batch of batches(icons)) {
    iconsWritten += await upsertIcons(tx, setId, batch, slugs);
    await replaceTags(tx, setId, batch);
    iconsDone += batch.length;
    onProgress?.({ prefix: set.prefix, iconsDone, iconsTotal: icons.length });
  }
  const unpublished = await tx.$executeRawUnsafe(
    `UPDATE icons SET published = false WHERE set_id = $1 AND published AND NOT (source_name = ANY($2::text[]))`,
    setId,
    icons.map((icon) => icon.sourceName),
  );
  const aliasesWritten = await replaceAliases(tx, setId, aliases);
  await applyOwners(tx, setId, icons, owners);
  // Last, so the row lock that orders concurrent imports is held only until the commit: the
  // catalogue's new version becomes visible together with the set (refresh-search.ts).
  await tx.$executeRawUnsafe('UPDATE catalogue_state SET version = version + 1 WHERE id = 1');
  return { setId, iconsWritten, unpublished, renamed, aliasesWritten };
}

/** The set's alias rows become `aliases`; a row already as it should be is not rewritten. */
async function replaceAliases(tx: Transaction, setId: number, aliases: readonly MappedAlias[]): Promise<number> {
  const deleted = await tx.$executeRawUnsafe(
    `DELETE FROM icon_aliases WHERE set_id = $1 AND NOT (name = ANY($2::text[]))`,
    setId,
    aliases.map((alias) => alias.name),
  );
  if (aliases.length === 0) return deleted;
  const rows = aliases.map((alias) => ({
    name: alias.name,
    parent: alias.parent,
    icon: alias.icon,
    rotate: alias.rotate,
    h_flip: alias.hFlip,
    v_flip: alias.vFlip,
    width: alias.width,
    height: alias.height,
  }));
  const columns = ['parent', 'icon_id', 'rotate', 'h_flip', 'v_flip', 'width', 'height'];
  const written = await tx.$executeRawUnsafe(
    `INSERT INTO icon_aliases (set_id, name, ${columns.join(', ')})
     SELECT $1, r.name, r.parent, i.id, r.rotate, r.h_flip, r.v_flip, r.width, r.height
     FROM jsonb_to_recordset($2::jsonb) AS r(name text, parent text, icon text, rotate smallint, h_flip boolean, v_flip boolean, width float8, height float8)
     JOIN icons i ON i.set_id = $1 AND i.source_name = r.icon
     ON CONFLICT (set_id, name) DO UPDATE SET ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}
     WHERE (${columns.map((column) => `icon_aliases.${column}`).join(', ')}) IS DISTINCT FROM (${columns.map((column) => `excluded.${column}`).join(', ')})`,
    setId,
    JSON.stringify(rows),
  );
  return deleted + written;
}

/** Renames rows before the upsert, so that the renamed icon's row is the one updated. */
async function applyRenames(tx: Transaction, setId: number, icons: MappedIcon[], renames: Record<string, string> | undefined): Promise<number> {
  if (!renames || Object.keys(renames).length === 0) return 0;
  const rows = await tx.$queryRawUnsafe<{ source_name: string }[]>(
    `SELECT source_name FROM icons WHERE set_id = $1 AND source_name = ANY($2::text[])`,
    setId,
    [...Object.keys(renames), ...Object.values(renames)],
  );
  const existing = new Set(rows.map((row) => row.source_name));
  const applicable = applicableRenames(renames, existing, new Set(icons.map((icon) => icon.sourceName)));
  for (const [from, to] of applicable) {
    await tx.$executeRawUnsafe(`UPDATE icons SET source_name = $3 WHERE set_id = $1 AND source_name = $2`, setId, from, to);
  }
  return applicable.length;
}

/** The config's owners, and every set grant's account, own what they should of the set. */
async function applyOwners(tx: Transaction, setId: number, icons: MappedIcon[], owners: OwnersConfig | undefined): Promise<void> {
  for (const [account, what] of Object.entries(owners ?? {})) {
    await tx.$executeRawUnsafe(`INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, account);
    if (what === '*') {
      await tx.$executeRawUnsafe(
        `INSERT INTO set_grants (account_id, set_id) SELECT id, $2 FROM accounts WHERE name = $1 ON CONFLICT DO NOTHING`,
        account,
        setId,
      );
      continue;
    }
    const names = icons.filter((icon) => matchesAny(icon.sourceName, what)).map((icon) => icon.sourceName);
    await tx.$executeRawUnsafe(
      `INSERT INTO ownership (account_id, icon_id)
       SELECT a.id, i.id FROM accounts a JOIN icons i ON i.set_id = $2 AND i.source_name = ANY($3::text[])
       WHERE a.name = $1 ON CONFLICT DO NOTHING`,
      account,
      setId,
      names,
    );
  }
  await tx.$executeRawUnsafe(
    `INSERT INTO ownership (account_id, icon_id)
     SELECT g.account_id, i.id FROM set_grants g JOIN icons i ON i.set_id = g.set_id
     WHERE g.set_id = $1 ON CONFLICT DO NOTHING`,
    setId,
  );
}

/**
 * What Iconify's protocol says of a set, counted once here rather than on each read (counting
 * them over the full catalogue's icons took 4 to 7 s): its free icons (`total`) and the height
 * most of its icons have (`height`, the smaller on a tie). The icons written are the set's
 * published ones: the others are unpublished by the same write.
 */
function protocolCounts(icons: readonly MappedIcon[]): { freeIconCount: number; commonHeight: number | null } {
  let freeIconCount = 0;
  const heights = new Map<number, number>();
  for (const icon of icons) {
    if (!icon.published) continue;
    if (!icon.premium) freeIconCount++;
    heights.set(icon.height, (heights.get(icon.height) ?? 0) + 1);
  }
  let commonHeight: number | null = null;
  let most = 0;
  for (const [height, count] of heights) {
    if (count > most || (count === most && height < commonHeight!)) {
      commonHeight = height;
      most = count;
    }
  }
  return { freeIconCount, commonHeight };
}

async function upsertSetRow(tx: Transaction, set: MappedSet, digest: string, counts: ReturnType<typeof protocolCounts>): Promise<number> {
  const fields = {
    ...counts,
    name: set.name,
    author: set.author,
    authorUrl: set.authorUrl,
    licenseTitle: set.licenseTitle,
    licenseSpdx: set.licenseSpdx,
    licenseUrl: set.licenseUrl,
    premium: set.premium,
    multicolor: set.multicolor,
    version: set.version,
    sourceDigest: digest,
    iconCount: set.iconCount,
    chars: set.chars ?? Prisma.DbNull,
    importedAt: new Date(),
  };
  const row = await tx.iconSet.upsert({
    where: { prefix: set.prefix },
    create: { prefix: set.prefix, ...fields },
    update: fields,
    select: { id: true },
  });
  return row.id;
}

function uniqueBySlug(refs: NamedRef[]): NamedRef[] {
  return [...new Map(refs.map((ref) => [ref.slug, ref])).values()];
}

async function upsertNamed(tx: Transaction, table: 'categories' | 'tags', refs: NamedRef[]): Promise<void> {
  if (refs.length === 0) return;
  // The first set to name a category or tag gives it its display name; later sets keep it.
  await tx.$executeRawUnsafe(
    `INSERT INTO ${table} (slug, name)
     SELECT r.slug, r.name FROM jsonb_to_recordset($1::jsonb) AS r(slug text, name text)
     ORDER BY r.slug
     ON CONFLICT (slug) DO NOTHING`,
    JSON.stringify(refs),
  );
}

/**
 * A slug is `<prefix>-<name>`, which two sets can produce alike (set `a` icon `b-c`, set `a-b`
 * icon `c`). The icon that has it keeps it; a newcomer gets `<prefix>--<name>`.
 */
async function resolveSlugs(tx: Transaction, setId: number, prefix: string, icons: MappedIcon[]): Promise<Map<string, string>> {
  const taken = await tx.$queryRawUnsafe<{ slug: string }[]>(
    `SELECT slug FROM icons WHERE slug = ANY($1::text[]) AND set_id <> $2`,
    icons.map((icon) => icon.slug),
    setId,
  );
  const takenSlugs = new Set(taken.map((row) => row.slug));
  return new Map(
    icons.map((icon) => [icon.sourceName, takenSlugs.has(icon.slug) ? `${prefix}--${icon.sourceName}` : icon.slug]),
  );
}

const ICON_COLUMNS = [
  'name',
  'category_id',
  'category_name',
  'style',
  'colors',
  'premium',
  'published_at',
  'published',
  'width',
  'height',
  'body',
  'body_mark',
  'keywords',
  'tag_names',
] as const;

/** The JSON fields of one incoming icon row and their SQL types. */
const INCOMING_ICON_FIELDS = [
  ['slug', 'text'],
  ['source_name', 'text'],
  ['name', 'text'],
  ['category_slug', 'text'],
  ['style', 'text'],
  ['colors', 'text[]'],
  ['premium', 'boolean'],
  ['published_at', 'timestamptz'],
  ['published', 'boolean'],
  ['width', 'integer'],
  ['height', 'integer'],
  ['body', 'text'],
  ['body_mark', 'text'],
  ['keywords', 'text[]'],
  ['tag_names', 'text[]'],
] as const;

async function upsertIcons(tx: Transaction, setId: number, batch: MappedIcon[], slugs: Map<string, string>): Promise<number> {
  const rows = batch.map((icon) => ({
    slug: slugs.get(icon.sourceName),
    source_name: icon.sourceName,
    name: icon.name,
    category_slug: icon.category.slug,
    style: icon.style,
    colors: icon.colors,
    premium: icon.premium,
    published_at: icon.publishedAt.toISOString(),
    published: icon.published,
    width: icon.width,
    height: icon.height,
    body: icon.body,
    // mapIconSet's bodies come out of the sanitizer (placed, at most, in a numeric translate).
    body_mark: sanitizedMark(icon.body),
    keywords: icon.keywords,
    tag_names: icon.tags.map((tag) => tag.name),
  }));
  const assignments = ICON_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', ');
  const changed = ICON_COLUMNS.map((column) => `icons.${column}`).join(', ');
  const incoming = ICON_COLUMNS.map((column) => `excluded.${column}`).join(', ');
  // The icon's copy of its category name is the category's own (the first set to name it gave
  // it), whatever this set calls it: "Food / Drink" and "Food & Drink" are one category, one name.
  // Rows are only rewritten when a value differs, so a re-import of unchanged data writes nothing.
  // New rows are inserted in source order (ordinality), so a fresh import numbers ids alike.
  return tx.$executeRawUnsafe(
    `INSERT INTO icons (slug, set_id, source_name, ${ICON_COLUMNS.join(', ')})
     SELECT r.slug, $1, r.source_name, r.name, c.id, c.name, r.style, r.colors, r.premium,
            r.published_at, r.published, r.width, r.height, r.body, r.body_mark,
            r.keywords, r.tag_names
     FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (${INCOMING_ICON_FIELDS.map(([name, type]) => `${name} ${type}`).join(', ')}))
       WITH ORDINALITY AS r(${INCOMING_ICON_FIELDS.map(([name]) => name).join(', ')}, ordinality)
     JOIN categories c ON c.slug = r.category_slug
     ORDER BY r.ordinality
     ON CONFLICT (set_id, source_name) DO UPDATE SET ${assignments}
     WHERE (${changed}) IS DISTINCT FROM (${incoming})`,
    setId,
    JSON.stringify(rows),
  );
}

async function replaceTags(tx: Transaction, setId: number, batch: MappedIcon[]): Promise<void> {
  const links = batch.flatMap((icon) => icon.tags.map((tag) => ({ source_name: icon.sourceName, tag: tag.slug, of_set: tag.ofSet === true })));
  const wanted = `SELECT i.id AS icon_id, t.id AS tag_id, r.of_set
     FROM jsonb_to_recordset($2::jsonb) AS r(source_name text, tag text, of_set boolean)
     JOIN icons i ON i.set_id = $1 AND i.source_name = r.source_name
     JOIN tags t ON t.slug = r.tag`;
  const names = JSON.stringify(batch.map((icon) => ({ source_name: icon.sourceName })));
  await tx.$executeRawUnsafe(
    `DELETE FROM icon_tags it USING icons i, jsonb_to_recordset($2::jsonb) AS b(source_name text)
     WHERE it.icon_id = i.id AND i.set_id = $1 AND i.source_name = b.source_name
       AND (it.icon_id, it.tag_id) NOT IN (SELECT icon_id, tag_id FROM (${wanted.replace('$2', '$3')}) w)`,
    setId,
    names,
    JSON.stringify(links),
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO icon_tags (icon_id, tag_id, of_set) ${wanted}
     ON CONFLICT (icon_id, tag_id) DO UPDATE SET of_set = excluded.of_set WHERE icon_tags.of_set IS DISTINCT FROM excluded.of_set`,
    setId,
    JSON.stringify(links),
  );
}
