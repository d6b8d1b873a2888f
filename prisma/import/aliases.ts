// Which of a set's names are aliases, as rows of `icon_aliases`: each keeps its own parent and
// the transformations and size it adds (the protocol hands them out as the set declares them and
// @iconify/utils merges them along the chain when it draws), and the icon its chain ends at.
import type { ExtendedIconifyAlias, IconifyAlias, IconifyJSON } from '@iconify/types';
import type { getIconsTree } from '@iconify/utils';
import type { PrismaClient } from '../generated/client.ts';

export interface MappedAlias {
  name: string;
  parent: string;
  /** Source name of the icon the chain ends at. */
  icon: string;
  /** Quarter turns, 0 to 3. */
  rotate: number;
  hFlip: boolean;
  vFlip: boolean;
  width: number | null;
  height: number | null;
}

export interface MappedAliases {
  aliases: MappedAlias[];
  /** Aliases left out because their chain is broken or circular. */
  broken: number;
}

const quarterTurns = (rotate: number | undefined) => (((Math.trunc(rotate ?? 0) % 4) + 4) % 4);
const size = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/**
 * The aliases of a validated set. An alias named as an icon is left out (the icon wins); so is
 * one that is hidden, passes through a hidden alias or ends at a hidden icon, as hidden icons
 * are not published. `tree`: getIconsTree's chains of the set; `declared`: how many aliases the source had before validation dropped any.
 */
export function mapAliases(json: IconifyJSON, tree: ReturnType<typeof getIconsTree>, declared: number): MappedAliases {
  const entries = (json.aliases ?? {}) as Record<string, ExtendedIconifyAlias>;
  const aliases: MappedAlias[] = [];
  let resolved = 0;
  for (const [name, alias] of Object.entries(entries)) {
    if (json.icons[name]) continue;
    const chain = tree[name];
    if (!chain?.length) continue;
    resolved++;
    const icon = chain[chain.length - 1]!;
    const hidden = alias.hidden === true || json.icons[icon]?.hidden === true || chain.slice(0, -1).some((parent) => (entries[parent] as ExtendedIconifyAlias | undefined)?.hidden === true);
    if (hidden) continue;
    aliases.push({
      name,
      parent: alias.parent,
      icon,
      rotate: quarterTurns(alias.rotate),
      hFlip: alias.hFlip === true,
      vFlip: alias.vFlip === true,
      width: size(alias.width),
      height: size(alias.height),
    });
  }
  const shadowed = Object.keys(entries).filter((name) => json.icons[name]).length;
  return { aliases, broken: declared - resolved - shadowed };
}

/**
 * A rename (old name -> new name) keeps the old name answering as an alias of the new one, when
 * the old name is no icon's or alias's of the set and the new one is an icon or alias of it.
 */
export function renameAliases(renames: Record<string, string> | undefined, iconNames: ReadonlySet<string>, aliases: readonly MappedAlias[]): MappedAlias[] {
  const byName = new Map(aliases.map((alias) => [alias.name, alias]));
  const added: MappedAlias[] = [];
  for (const [from, to] of Object.entries(renames ?? {})) {
    if (iconNames.has(from) || byName.has(from)) continue;
    const icon = iconNames.has(to) ? to : byName.get(to)?.icon;
    if (icon === undefined) continue;
    const alias = { name: from, parent: to, icon, rotate: 0, hFlip: false, vFlip: false, width: null, height: null };
    byName.set(from, alias);
    added.push(alias);
  }
  return added;
}

/** A set's alias rows as they are stored, by name; `published`: whether the icon its chain ends at is. */
export async function storedAliases(prisma: PrismaClient, prefix: string): Promise<(MappedAlias & { published: boolean })[]> {
  const rows = await prisma.$queryRawUnsafe<{ name: string; parent: string; icon: string; rotate: number; h_flip: boolean; v_flip: boolean; width: number | null; height: number | null; published: boolean }[]>(
    `SELECT a.name, a.parent, i.source_name AS icon, a.rotate::int AS rotate, a.h_flip, a.v_flip, a.width, a.height, i.published
     FROM icon_aliases a JOIN icon_sets s ON s.id = a.set_id JOIN icons i ON i.id = a.icon_id
     WHERE s.prefix = $1 ORDER BY a.name`,
    prefix,
  );
  return rows.map((row) => ({ name: row.name, parent: row.parent, icon: row.icon, rotate: row.rotate, hFlip: row.h_flip, vFlip: row.v_flip, width: row.width, height: row.height, published: row.published }));
}

/** An alias as IconifyJSON writes it: only what it adds to its parent. */
export function iconifyAlias(alias: Omit<MappedAlias, 'name' | 'icon'>): IconifyAlias {
  const entry: IconifyAlias = { parent: alias.parent };
  if (alias.rotate) entry.rotate = alias.rotate;
  if (alias.hFlip) entry.hFlip = true;
  if (alias.vFlip) entry.vFlip = true;
  if (alias.width !== null) entry.width = alias.width;
  if (alias.height !== null) entry.height = alias.height;
  return entry;
}

/** What writing `incoming` as a set's aliases would change of `stored`: alias names added, changed and removed. */
export function aliasChanges(stored: readonly MappedAlias[], incoming: readonly MappedAlias[]): { added: string[]; changed: string[]; removed: string[] } {
  const before = new Map(stored.map((alias) => [alias.name, alias]));
  const after = new Set(incoming.map((alias) => alias.name));
  const same = (a: MappedAlias, b: MappedAlias) =>
    a.parent === b.parent && a.icon === b.icon && a.rotate === b.rotate && a.hFlip === b.hFlip && a.vFlip === b.vFlip && a.width === b.width && a.height === b.height;
  const added: string[] = [];
  const changed: string[] = [];
  for (const alias of incoming) {
    const old = before.get(alias.name);
    if (!old) added.push(alias.name);
    else if (!same(old, alias)) changed.push(alias.name);
  }
  return { added, changed, removed: stored.map((alias) => alias.name).filter((name) => !after.has(name)) };
}
