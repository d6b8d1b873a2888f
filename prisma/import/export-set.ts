// A set of the catalogue as IconifyJSON (`export --set <prefix>`): its published icons with their
// bodies and boxes, the aliases of them, its categories, characters map and info, and what
// IconifyJSON has no field for (display names, tags, keywords, styles) under the top-level key
// EXTRAS_KEY, which Iconify's tools leave alone and this importer reads back (own-sources.ts):
// importing the file gives the same icons, aliases and characters.
import type { IconifyJSON } from '@iconify/types';
import { validateIconSet } from '@iconify/utils';
import type { PrismaClient } from '../generated/client.ts';
import { iconifyAlias, storedAliases } from './aliases.ts';
import type { IconExtras } from './map-set.ts';

export const EXTRAS_KEY = 'x-icon-catalogue';

export class UnknownSetPrefixError extends Error {
  override name = 'UnknownSetPrefixError';
}

export async function exportSet(prisma: PrismaClient, prefix: string): Promise<IconifyJSON & { [EXTRAS_KEY]: Record<string, IconExtras> }> {
  const set = await prisma.iconSet.findUnique({ where: { prefix } });
  if (!set) throw new UnknownSetPrefixError(`No set "${prefix}" in the catalogue`);
  const icons = await prisma.$queryRawUnsafe<
    { source_name: string; name: string; body: string; width: number; height: number; style: string; keywords: string[]; category_name: string; tags: string[] }[]
  >(
    `SELECT i.source_name, i.name, i.body, i.width, i.height, i.style, i.keywords, i.category_name,
            coalesce(array_agg(t.name ORDER BY t.name) FILTER (WHERE t.id IS NOT NULL), '{}') AS tags
     FROM icons i
     LEFT JOIN icon_tags it ON it.icon_id = i.id AND NOT it.of_set
     LEFT JOIN tags t ON t.id = it.tag_id
     WHERE i.set_id = $1 AND i.published
     GROUP BY i.id ORDER BY i.source_name`,
    set.id,
  );
  const json: IconifyJSON = {
    prefix,
    info: {
      name: set.name,
      total: icons.length,
      version: set.version,
      author: { name: set.author, ...(set.authorUrl ? { url: set.authorUrl } : {}) },
      license: { title: set.licenseTitle, ...(set.licenseSpdx ? { spdx: set.licenseSpdx } : {}), ...(set.licenseUrl ? { url: set.licenseUrl } : {}) },
      palette: set.multicolor,
    },
    icons: {},
    categories: {},
  };
  const extras: Record<string, IconExtras> = {};
  for (const icon of icons) {
    json.icons[icon.source_name] = { body: icon.body, width: icon.width, height: icon.height };
    const members = json.categories![icon.category_name];
    if (members) members.push(icon.source_name);
    else json.categories![icon.category_name] = [icon.source_name];
    extras[icon.source_name] = { name: icon.name, style: icon.style, keywords: icon.keywords, tags: icon.tags, category: icon.category_name };
  }
  const aliases = (await storedAliases(prisma, prefix)).filter((alias) => alias.published);
  if (aliases.length) json.aliases = Object.fromEntries(aliases.map((alias) => [alias.name, iconifyAlias(alias)]));
  const chars = Object.entries((set.chars ?? {}) as Record<string, string>).filter(([, name]) => json.icons[name] || json.aliases?.[name]);
  if (chars.length) json.chars = Object.fromEntries(chars);
  if (icons.length) validateIconSet(json);
  return { ...json, [EXTRAS_KEY]: extras };
}
