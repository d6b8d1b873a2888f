// Pure mapping step of the importer: one parsed Iconify icon set -> plain catalogue rows.
// No I/O and no clock: the same source and options always give deep-equal output.
// The rules are documented in the README ("Data: how an Iconify set becomes catalogue rows"); bump MAPPING_VERSION whenever they change.

import type { IconifyJSON } from '@iconify/types';
import { getIconsTree, validateIconSet } from '@iconify/utils';
import { sanitizeSvgBody } from '../../lib/svg/sanitize.ts';
import { type MappedAlias, mapAliases } from './aliases.ts';
import { matchesAny } from './catalogue-config.ts';
import { bodyHues } from './colors.ts';
import { derivePublishedAt, FALLBACK_LAST_MODIFIED } from './derived-stats.ts';
import { createStyleResolver, normalizeStyle } from './styles.ts';
import { compareByteOrder, displayName, nameTokens, slugify } from './text.ts';

export const MAPPING_VERSION = 6;

export interface SetSource {
  /** Parsed icons.json. */
  json: unknown;
  /** Parsed metadata.json if it exists (categories, suffixes, prefixes). */
  metadata?: unknown;
  /** Parsed chars.json if it exists (the @iconify-json packages keep `chars` there); else `json.chars`. */
  chars?: unknown;
  /**
   * Parsed info.json. The @iconify-json packages keep `info` there, not in icons.json;
   * when omitted, `json.info` is used.
   */
  info?: unknown;
  /** npm package version, or the version a source of our own was read at. */
  version: string;
  /**
   * Per icon (by its name in the set): what a folder's metadata file or its cleanup says about
   * it, over what the IconifyJSON says.
   */
  iconExtras?: Record<string, IconExtras>;
  /**
   * Every body is already sanitizeSvgBody's output (a folder's files are sanitized as they are
   * cleaned, in worker threads): sanitizing again would give the same bodies, one by one, in this thread.
   */
  bodiesSanitized?: boolean;
}

export interface IconExtras {
  /** Display name. */
  name?: string;
  tags?: string[];
  keywords?: string[];
  category?: string;
  style?: string;
  /** The icon's own palette (else the set's `info.palette`). */
  multicolor?: boolean;
}

export interface SetOptions {
  /** true: every icon; a list: the icons whose names match one of its names or globs. */
  premium: boolean | readonly string[];
  /** From config; used when no suffix says otherwise. */
  defaultStyle?: string;
  /**
   * Old name -> new name. An old name that is no icon's or alias's of the set becomes an alias of
   * the new one (aliases.ts's renameAliases), so its words find the icon, as an alias's do.
   */
  renames?: Readonly<Record<string, string>>;
}

export interface MappedSet {
  prefix: string;
  name: string;
  author: string;
  authorUrl: string | null;
  licenseTitle: string;
  licenseSpdx: string | null;
  licenseUrl: string | null;
  premium: boolean;
  multicolor: boolean;
  version: string;
  /** Published icons. */
  iconCount: number;
  /** Iconify's characters map (code point in hex -> a published icon's or alias's name); null when the source has none. */
  chars: Record<string, string> | null;
}

export interface NamedRef {
  slug: string;
  name: string;
}

/** A tag of an icon; `ofSet` when it describes the whole set (its info tags, its name) rather than the icon. */
export interface IconTagRef extends NamedRef {
  ofSet?: true;
}

export interface MappedIcon {
  sourceName: string;
  slug: string;
  name: string;
  category: NamedRef;
  tags: IconTagRef[];
  keywords: string[];
  style: string;
  colors: string[];
  premium: boolean;
  publishedAt: Date;
  published: boolean;
  width: number;
  height: number;
  body: string;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const result: Record<string, string> = {};
  for (const [key, label] of Object.entries(value)) {
    if (typeof label === 'string') result[key] = label;
  }
  return result;
}

/** The entries of a characters map (code points in hex, `-` between those of a sequence) that name what is published (hidden icons are not); null for none. */
function publishedChars(chars: Record<string, string> | undefined, published: ReadonlySet<string>): Record<string, string> | null {
  if (!chars) return null;
  const kept = Object.entries(chars).filter(([char, name]) => /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i.test(char) && published.has(name));
  return kept.length ? Object.fromEntries(kept) : null;
}

/** `info.category` -> fallback category name. */
export function friendlyCategory(infoCategory: string | null): string {
  if (infoCategory === null) return 'General';
  const lower = infoCategory.toLowerCase();
  if (/^ui\b/.test(lower)) return 'Interface';
  if (/^logos?$/.test(lower)) return 'Logos';
  if (/^emojis?$/.test(lower)) return 'Emoji';
  if (/^flags?\s*\/\s*maps?$/.test(lower)) return 'Flags & Maps';
  if (lower === 'thematic') return 'Thematic';
  if (lower === 'programming') return 'Programming';
  return infoCategory;
}

interface SourceIcon {
  body: string;
  width?: number;
  height?: number;
  left?: number;
  top?: number;
  hidden: boolean;
}

/** Formats a translate offset without float noise (`0.25`, `-31.4`, never `-0`). */
function formatOffset(value: number): string {
  const rounded = Number(value.toFixed(6));
  return String(rounded === 0 ? 0 : rounded);
}

/**
 * Integer width/height for the catalogue (its columns are Int). A fractional size is rounded
 * up and the content centred in the extra space; a viewBox offset (`left`/`top`) is folded
 * into the body, so the body renders correctly in a `0 0 width height` viewBox.
 */
function placeBody(icon: SourceIcon, defaults: { width: number; height: number; left: number; top: number }) {
  const sourceWidth = icon.width ?? defaults.width;
  const sourceHeight = icon.height ?? defaults.height;
  const width = Math.ceil(sourceWidth);
  const height = Math.ceil(sourceHeight);
  const dx = (width - sourceWidth) / 2 - (icon.left ?? defaults.left);
  const dy = (height - sourceHeight) / 2 - (icon.top ?? defaults.top);
  const body =
    dx === 0 && dy === 0
      ? icon.body
      : `<g transform="translate(${formatOffset(dx)} ${formatOffset(dy)})">${icon.body}</g>`;
  return { width, height, body };
}

export interface MappedIconSet {
  set: MappedSet;
  icons: MappedIcon[];
  /** The set's aliases (aliases.ts). */
  aliases: MappedAlias[];
  /** Aliases left out because their chain is broken or circular. */
  brokenAliases: number;
}

export function mapIconSet(source: SetSource, options: SetOptions): MappedIconSet {
  if (!isObject(source.json)) throw new TypeError('icon set JSON must be an object');
  const declaredPrefix = optionalString(source.json.prefix);
  if (declaredPrefix === null) throw new TypeError('icon set JSON has no prefix');
  // @iconify/utils checks the structure (prefix, icon and alias entries, their properties) as
  // Iconify's own tools do; `fix` drops a broken entry instead of refusing the whole set.
  let json: IconifyJSON & JsonObject;
  const declaredAliases = isObject(source.json.aliases) ? Object.keys(source.json.aliases).length : 0;
  try {
    json = validateIconSet(source.json, { fix: true }) as IconifyJSON & JsonObject;
  } catch (error) {
    throw new TypeError(`${declaredPrefix}: not a valid IconifyJSON icon set (${(error as Error).message})`);
  }
  const prefix = json.prefix;
  const extras = source.iconExtras ?? {};
  const metadata = isObject(source.metadata) ? source.metadata : {};
  const info = isObject(source.info) ? source.info : isObject(json.info) ? json.info : null;
  if (info === null) throw new TypeError(`${prefix}: no set info (pass info.json as source.info)`);
  const infoPrefix = optionalString(info.prefix);
  if (infoPrefix !== null && infoPrefix !== prefix) {
    throw new TypeError(`${prefix}: info is for another set (${infoPrefix})`);
  }

  // --- the set -------------------------------------------------------------------------
  const author = isObject(info.author) ? info.author : {};
  const license = isObject(info.license) ? info.license : {};
  const setName = optionalString(info.name) ?? prefix;
  const multicolor = info.palette === true;

  // --- icons and aliases ---------------------------------------------------------------
  const icons = new Map<string, SourceIcon>();
  for (const [name, entry] of Object.entries(json.icons)) {
    if (!isObject(entry) || typeof entry.body !== 'string') {
      throw new TypeError(`${prefix}: icon "${name}" has no body`);
    }
    icons.set(name, {
      // Sanitized as it comes in (lib/svg/sanitize.ts): a set's markup must not run code in a page.
      body: source.bodiesSanitized ? entry.body : sanitizeSvgBody(entry.body),
      width: positiveNumber(entry.width),
      height: positiveNumber(entry.height),
      left: finiteNumber(entry.left),
      top: finiteNumber(entry.top),
      hidden: entry.hidden === true,
    });
  }

  const aliasNames = Object.keys(json.aliases ?? {});
  // Each name's chain of parents (@iconify/utils): null for a broken or circular chain.
  const tree = getIconsTree(json);
  /** Icon an alias chain ends at, or null for a broken or circular chain. */
  const resolve = (name: string): string | null => {
    if (icons.has(name)) return name;
    const parents = tree[name];
    return parents?.length ? parents[parents.length - 1]! : null;
  };
  const aliasesByIcon = new Map<string, string[]>();
  const addAlias = (alias: string, target: string | null) => {
    if (target === null) return; // a broken or circular chain
    const list = aliasesByIcon.get(target);
    if (list) list.push(alias);
    else aliasesByIcon.set(target, [alias]);
  };
  // An icon of the same name wins over an alias.
  for (const alias of aliasNames) if (!icons.has(alias)) addAlias(alias, resolve(alias));
  for (const [from, to] of Object.entries(options.renames ?? {})) if (!icons.has(from) && !json.aliases?.[from]) addAlias(from, resolve(to));

  // --- categories and tags -------------------------------------------------------------
  const refs = new Map<string, NamedRef>();
  const ref = (name: string): NamedRef | null => {
    const slug = slugify(name);
    if (slug === '') return null;
    let existing = refs.get(slug);
    if (!existing) {
      existing = { slug, name: name.trim() };
      refs.set(slug, existing);
    }
    return existing;
  };

  const categorySource = isObject(json.categories) ? json.categories : metadata.categories;
  const categoriesByIcon = new Map<string, NamedRef[]>();
  if (isObject(categorySource)) {
    for (const [categoryName, members] of Object.entries(categorySource)) {
      const category = ref(categoryName);
      if (category === null || !Array.isArray(members)) continue;
      for (const member of members) {
        if (typeof member !== 'string') continue;
        const target = resolve(member);
        if (target === null) continue;
        const list = categoriesByIcon.get(target);
        if (!list) categoriesByIcon.set(target, [category]);
        else if (!list.includes(category)) list.push(category);
      }
    }
  }
  const fallbackCategory = ref(friendlyCategory(optionalString(info.category))) ?? ref('General')!;
  const setTags: NamedRef[] = [];
  if (Array.isArray(info.tags)) {
    for (const tag of info.tags) {
      const tagRef = typeof tag === 'string' ? ref(tag) : null;
      if (tagRef) setTags.push(tagRef);
    }
  }
  const setNameTag = ref(setName);
  if (setNameTag) setTags.push(setNameTag);

  // --- styles, sizes, dates ------------------------------------------------------------
  const styleRules = {
    suffixes: stringRecord(json.suffixes) ?? stringRecord(metadata.suffixes),
    prefixes: stringRecord(json.prefixes) ?? stringRecord(metadata.prefixes),
    defaultStyle: options.defaultStyle,
    names: new Set([...icons.keys(), ...aliasNames]),
  };
  // An icon with a palette of its own (a folder's icons each have one) is styled by it.
  const styleOf = createStyleResolver({ ...styleRules, multicolor });
  const otherStyleOf = Object.keys(extras).length ? createStyleResolver({ ...styleRules, multicolor: !multicolor }) : styleOf;
  const styleOfPalette = (iconMulticolor: boolean | undefined) => (iconMulticolor === undefined || iconMulticolor === multicolor ? styleOf : otherStyleOf);
  const defaults = {
    width: positiveNumber(json.width) ?? 16,
    height: positiveNumber(json.height) ?? 16,
    left: finiteNumber(json.left) ?? 0,
    top: finiteNumber(json.top) ?? 0,
  };
  const lastModified = positiveNumber(json.lastModified) ?? FALLBACK_LAST_MODIFIED;

  // --- slugs (unique even if the URL-safety guard makes two names collide) -----------------
  const sourceNames = [...icons.keys()].sort(compareByteOrder);
  const prefixSlug = slugify(prefix);
  const baseSlugs = sourceNames.map((name) => [prefixSlug, slugify(name)].filter(Boolean).join('-'));
  const taken = new Set<string>();
  const baseSet = new Set(baseSlugs);
  const slugs = baseSlugs.map((base) => {
    let slug = base;
    // A numbered slug must not be taken nor be another icon's own slug.
    for (let n = 2; taken.has(slug) || (slug !== base && baseSet.has(slug)); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });

  // --- icons -----------------------------------------------------------------------------
  const isPremium = (name: string) => (typeof options.premium === 'boolean' ? options.premium : matchesAny(name, options.premium));
  let published = 0;
  const mapped = sourceNames.map((sourceName, index): MappedIcon => {
    const icon = icons.get(sourceName)!;
    const extra = extras[sourceName] ?? {};
    const ownCategory = extra.category === undefined ? null : ref(extra.category);
    const iconCategories = ownCategory ? [ownCategory] : (categoriesByIcon.get(sourceName) ?? []);
    const category = iconCategories[0] ?? fallbackCategory;

    const tags: IconTagRef[] = [];
    const tagSlugs = new Set([category.slug]);
    for (const tag of iconCategories.slice(1)) {
      if (tagSlugs.has(tag.slug)) continue;
      tagSlugs.add(tag.slug);
      tags.push(tag);
    }
    for (const tag of setTags) {
      if (tagSlugs.has(tag.slug)) continue;
      tagSlugs.add(tag.slug);
      tags.push({ ...tag, ofSet: true });
    }
    for (const name of extra.tags ?? []) {
      const tag = ref(name);
      if (tag === null || tagSlugs.has(tag.slug)) continue;
      tagSlugs.add(tag.slug);
      tags.push(tag);
    }

    const keywords = new Set(nameTokens(sourceName));
    for (const alias of aliasesByIcon.get(sourceName) ?? []) {
      for (const token of nameTokens(alias)) keywords.add(token);
    }
    for (const keyword of extra.keywords ?? []) {
      const word = keyword.trim().toLowerCase();
      if (word) keywords.add(word);
    }

    const colors = (extra.multicolor ?? multicolor) ? ['multicolor', ...bodyHues(icon.body)] : ['monochrome'];

    if (!icon.hidden) published++;
    return {
      sourceName,
      slug: slugs[index]!,
      name: extra.name ?? displayName(sourceName),
      category,
      tags,
      keywords: [...keywords],
      style: extra.style ? normalizeStyle(extra.style) : styleOfPalette(extra.multicolor)(sourceName),
      colors,
      premium: isPremium(sourceName),
      publishedAt: derivePublishedAt(prefix, sourceName, lastModified),
      published: !icon.hidden,
      ...placeBody(icon, defaults),
    };
  });

  const set: MappedSet = {
    prefix,
    name: setName,
    author: optionalString(author.name) ?? 'Unknown',
    authorUrl: optionalString(author.url),
    licenseTitle: optionalString(license.title) ?? 'Unknown',
    licenseSpdx: optionalString(license.spdx),
    licenseUrl: optionalString(license.url),
    premium: options.premium === true,
    multicolor,
    version: source.version,
    iconCount: published,
    chars: null,
  };
  const { aliases, broken } = mapAliases(json, tree, declaredAliases);
  set.chars = publishedChars(stringRecord(source.chars) ?? stringRecord(json.chars), new Set([...mapped.filter((icon) => icon.published).map((icon) => icon.sourceName), ...aliases.map((alias) => alias.name)]));
  return { set, icons: mapped, aliases, brokenAliases: broken };
}
