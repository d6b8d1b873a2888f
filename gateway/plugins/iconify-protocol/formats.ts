// Iconify's formats, made from what the catalogue's operations give: IconifyJSON for icon data,
// an SVG document or a stylesheet built by @iconify/utils (the rules of aliases, rotation, flip
// and size are the library's, not ours), and the info, collection and search objects of
// Iconify's API. Pure functions: no HTTP, no catalogue access.
import type { IconifyInfo, IconifyJSON } from '@iconify/types';
import { getIconData, getIconsCSS, iconToHTML, iconToSVG, type IconifyIconCustomisations } from '@iconify/utils';
import { iconifyAlias } from '../../../prisma/import/aliases.ts';
import type { IconifyAliasData, IconifySetData } from '../../../resolvers/catalogue/iconify.ts';

/** getIconsCSS's options (their type is not exported by name). */
export type CssOptions = NonNullable<Parameters<typeof getIconsCSS>[2]>;

/** An icon as the IconifyIcons operation gives it. */
export interface IconData {
  name: string;
  body: string;
  width: number;
  height: number;
  premium: boolean;
}

/** An alias as the IconifyIcons operation gives it: the resolver's record. */
export type AliasData = IconifyAliasData;

/** What the IconifyIcons operation gives. */
export interface IconsData {
  prefix: string;
  lastModified: number;
  palette: boolean;
  icons: IconData[];
  aliases: AliasData[];
  notFound: string[];
}

/** A set as the IconifySets operation gives it: the resolver's record, as GraphQL returns it. */
export type SetData = IconifySetData;

/**
 * The icon data of a request as IconifyJSON: a size all the icons share is said once at the root
 * (as Iconify's sets say it), others per icon; `not_found` only when some name was not found.
 */
export function iconifyJson(data: IconsData): IconifyJSON {
  const first = data.icons[0];
  const shared = first && data.icons.every((icon) => icon.width === first.width && icon.height === first.height) ? first : undefined;
  const json: IconifyJSON = { prefix: data.prefix, lastModified: data.lastModified, icons: {}, aliases: {} };
  if (shared) {
    json.width = shared.width;
    json.height = shared.height;
  }
  for (const icon of data.icons) {
    json.icons[icon.name] = shared ? { body: icon.body } : { body: icon.body, width: icon.width, height: icon.height };
  }
  for (const alias of data.aliases) json.aliases![alias.name] = iconifyAlias(alias);
  if (data.notFound.length) json.not_found = data.notFound;
  return json;
}

/** An SVG file's customizations, checked (customizations.ts). */
export interface SvgCustomizations {
  width?: string;
  height?: string;
  /** Quarter turns. */
  rotate: number;
  hFlip: boolean;
  vFlip: boolean;
  color?: string;
  box: boolean;
}

/**
 * The SVG document of icon `name` (an icon or an alias of `set`) with Iconify's customizations,
 * made as Iconify's API makes it; undefined when the name does not resolve.
 */
export function iconSvg(set: IconifyJSON, name: string, customizations: SvgCustomizations): string | undefined {
  const data = getIconData(set, name);
  if (!data) return undefined;
  const wanted: IconifyIconCustomisations = { rotate: customizations.rotate, hFlip: customizations.hFlip, vFlip: customizations.vFlip };
  wanted.width = customizations.width ?? null;
  wanted.height = customizations.height ?? null;
  const built = iconToSVG(data, wanted);
  // The box: a transparent rectangle over the icon's viewBox, so that editors keep its padding.
  const body = customizations.box
    ? `<rect x="${data.left ?? 0}" y="${data.top ?? 0}" width="${data.width ?? 16}" height="${data.height ?? 16}" fill="rgba(255, 255, 255, 0)" />${built.body}`
    : built.body;
  const svg = iconToHTML(body, built.attributes);
  return customizations.color ? svg.replaceAll('currentColor', customizations.color) : svg;
}

/** The stylesheet of the icons `names` of `set` (Iconify's /{prefix}.css). */
export function iconsCss(set: IconifyJSON, names: string[], palette: boolean, options: CssOptions): string {
  return getIconsCSS({ ...set, info: { palette } as IconifyInfo }, names, options);
}

/** A set as Iconify's `info` describes it. */
export function setInfo(set: SetData): IconifyInfo {
  const info: IconifyInfo = {
    name: set.name,
    total: set.total,
    author: set.authorUrl ? { name: set.author, url: set.authorUrl } : { name: set.author },
    license: { title: set.licenseTitle, ...(set.licenseSpdx ? { spdx: set.licenseSpdx } : {}), ...(set.licenseUrl ? { url: set.licenseUrl } : {}) },
    samples: set.samples,
    palette: set.palette,
  };
  if (set.height !== null) info.height = set.height;
  return info;
}

/** What the IconifyCollection operation gives. */
export interface CollectionData {
  set: SetData;
  categories: { name: string; icons: string[] }[];
  aliases: { name: string; parent: string }[];
  /** When asked for. */
  chars?: { char: string; name: string }[];
}

/** Iconify's /collection answer, with `info` when asked, and `chars` when asked and the set has a map. */
export function collectionJson(data: CollectionData, { info }: { info: boolean }): Record<string, unknown> {
  // The icons listed, which for an owner's key include its premium ones: the set's `total` counts free icons only.
  const total = data.categories.reduce((sum, category) => sum + category.icons.length, 0);
  const json: Record<string, unknown> = { prefix: data.set.prefix, total, title: data.set.name };
  if (info) json.info = { ...setInfo(data.set), total };
  if (data.categories.length) json.categories = Object.fromEntries(data.categories.map((category) => [category.name, category.icons]));
  if (data.aliases.length) json.aliases = Object.fromEntries(data.aliases.map((alias) => [alias.name, alias.parent]));
  if (data.chars?.length) json.chars = Object.fromEntries(data.chars.map((entry) => [entry.char, entry.name]));
  return json;
}

/** Set prefixes as Iconify's `prefix` and `prefixes` parameters choose them: exact, or `mdi-` for every prefix starting so. */
export function choosePrefixes(all: readonly string[], exact: string | null, list: string | null): string[] {
  if (exact) return all.includes(exact) ? [exact] : [];
  if (!list) return [...all];
  const wanted = list.split(',').filter(Boolean);
  return all.filter((prefix) => wanted.some((item) => (item.endsWith('-') ? prefix.startsWith(item) : prefix === item)));
}
