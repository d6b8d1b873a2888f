import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyHues, classifyColor, HUE_NAMES, parseColor } from '../../prisma/import/colors.ts';
import {
  derivePublishedAt,
  FALLBACK_LAST_MODIFIED,
  fnv1a32,
  PUBLISH_WINDOW_SECONDS,
} from '../../prisma/import/derived-stats.ts';
import {
  friendlyCategory,
  MAPPING_VERSION,
  mapIconSet,
  type MappedIcon,
  type SetSource,
} from '../../prisma/import/map-set.ts';
import { normalizeStyle } from '../../prisma/import/styles.ts';
import { sanitizeSvgBody } from '../../lib/svg/sanitize.ts';
import { compareByteOrder, displayName, slugify } from '../../prisma/import/text.ts';

// ---------------------------------------------------------------------------------------------
// Source data, read independently of the mapper
// ---------------------------------------------------------------------------------------------

interface RawIcon {
  body: string;
  width?: number;
  height?: number;
  left?: number;
  top?: number;
  hidden?: boolean;
}
interface RawSet {
  prefix: string;
  icons: Record<string, RawIcon>;
  aliases?: Record<string, { parent: string }>;
  categories?: Record<string, string[]>;
  suffixes?: Record<string, string>;
  lastModified?: number;
  width?: number;
  height?: number;
}
interface RawInfo {
  name: string;
  author: { name: string; url?: string };
  license: { title: string; spdx?: string; url?: string };
  category?: string;
  tags?: string[];
  palette?: boolean;
}
interface RawMetadata {
  categories?: Record<string, string[]>;
  suffixes?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(require.resolve(path), 'utf8'));

const PREFIXES = ['solar', 'tabler', 'mdi', 'logos', 'fluent-emoji-flat'] as const;
type Prefix = (typeof PREFIXES)[number];

interface Loaded {
  raw: RawSet;
  info: RawInfo;
  metadata: RawMetadata;
  chars: Record<string, string>;
  source: SetSource;
}
const loaded = new Map<Prefix, Loaded>();
for (const prefix of PREFIXES) {
  const base = `@iconify-json/${prefix}`;
  const json = readJson(`${base}/icons.json`);
  const metadata = readJson(`${base}/metadata.json`);
  const info = readJson(`${base}/info.json`);
  const chars = readJson(`${base}/chars.json`) as Record<string, string>;
  const version = (readJson(`${base}/package.json`) as { version: string }).version;
  loaded.set(prefix, {
    raw: json as RawSet,
    info: info as RawInfo,
    metadata: metadata as RawMetadata,
    chars,
    source: { json, metadata, info, chars, version },
  });
}
const get = (prefix: Prefix): Loaded => loaded.get(prefix)!;

/** The entries of chars.json naming an icon that is not hidden, or an alias; null for none. */
function publishedCharsOf({ raw, chars }: Loaded): Record<string, string> | null {
  const kept = Object.entries(chars).filter(([, name]) => (raw.icons[name] && !raw.icons[name].hidden) || raw.aliases?.[name]);
  return kept.length ? Object.fromEntries(kept) : null;
}

/** Mapped once per set and reused by the read-only assertions. */
const mappedCache = new Map<Prefix, ReturnType<typeof mapIconSet>>();
function mapped(prefix: Prefix) {
  let result = mappedCache.get(prefix);
  if (!result) {
    result = mapIconSet(get(prefix).source, { premium: false });
    mappedCache.set(prefix, result);
  }
  return result;
}
function iconByName(prefix: Prefix, name: string): MappedIcon {
  const icon = mapped(prefix).icons.find((candidate) => candidate.sourceName === name);
  if (!icon) throw new Error(`${prefix}:${name} not mapped`);
  return icon;
}

/** Independent alias resolution for the expectations. */
function aliasTarget(raw: RawSet, alias: string): string | null {
  let current = alias;
  for (let depth = 0; depth < 50; depth++) {
    if (raw.icons[current]) return current;
    const parent = raw.aliases?.[current]?.parent;
    if (parent === undefined) return null;
    current = parent;
  }
  return null;
}

/** Fallback categories read by hand from each info.json `category`. */
const EXPECTED_FALLBACK: Record<Prefix, string> = {
  solar: 'Interface', // "UI 24px"
  tabler: 'Interface', // "UI 24px"
  mdi: 'Material', // "Material"
  logos: 'Logos', // "Logos"
  'fluent-emoji-flat': 'Emoji', // "Emoji"
};

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Runs `check` on every icon and returns the first failures as `name: message` strings, so a
 * whole set is asserted with one `expect` (per-icon `expect` calls make the suite slow).
 */
function failures(icons: readonly MappedIcon[], check: (icon: MappedIcon) => string | null): string[] {
  const found: string[] = [];
  for (const icon of icons) {
    const message = check(icon);
    if (message !== null) found.push(`${icon.sourceName}: ${message}`);
    if (found.length >= 10) break;
  }
  return found;
}
const same = (actual: unknown, expected: unknown): string | null =>
  JSON.stringify(actual) === JSON.stringify(expected)
    ? null
    : `got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;

// ---------------------------------------------------------------------------------------------
// Properties that hold for every real set
// ---------------------------------------------------------------------------------------------

describe.each(PREFIXES)('real set %s', (prefix) => {
  const { raw, info, metadata, source } = get(prefix);
  const sourceNames = Object.keys(raw.icons);
  const categories = raw.categories ?? metadata.categories ?? {};
  const members = new Map(Object.entries(categories).map(([name, list]) => [name, new Set(list)]));
  /** Categories listing an icon, in source order. */
  const listing = (name: string) => [...members.keys()].filter((category) => members.get(category)!.has(name));

  it('maps one icon per entry of `icons`, in byte order of the source name', () => {
    const { icons } = mapped(prefix);
    expect(icons).toHaveLength(sourceNames.length);
    const expectedOrder = [...sourceNames].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(icons.map((icon) => icon.sourceName)).toEqual(expectedOrder);
  });

  it('publishes exactly the entries without `hidden`', () => {
    const { set, icons } = mapped(prefix);
    const visible = sourceNames.filter((name) => raw.icons[name]!.hidden !== true);
    expect(icons.filter((icon) => icon.published)).toHaveLength(visible.length);
    expect(set.iconCount).toBe(visible.length);
    expect(failures(icons, (icon) => same(icon.published, raw.icons[icon.sourceName]!.hidden !== true))).toEqual([]);
  });

  it('gives unique, URL-safe slugs of the form prefix-name', () => {
    const { icons } = mapped(prefix);
    expect(new Set(icons.map((icon) => icon.slug)).size).toBe(icons.length);
    const check = (icon: MappedIcon) =>
      !SLUG.test(icon.slug)
        ? `slug ${icon.slug} is not URL-safe`
        : // Iconify names are already slugs
          (same(icon.slug, `${prefix}-${icon.sourceName}`) ?? same(icon.name, displayName(icon.sourceName)));
    expect(failures(icons, check)).toEqual([]);
  });

  it('puts every icon in the first source category listing it, else the set fallback', () => {
    const check = (icon: MappedIcon) => {
      const expectedName = listing(icon.sourceName)[0] ?? EXPECTED_FALLBACK[prefix];
      return same(icon.category, { slug: slugify(expectedName), name: expectedName });
    };
    expect(failures(mapped(prefix).icons, check)).toEqual([]);
    expect(mapped(prefix).icons.every((icon) => SLUG.test(icon.category.slug))).toBe(true);
  });

  it('tags icons with their other categories, the set tags and the set name, never the category', () => {
    const setTagSlugs = [...(info.tags ?? []), info.name].map(slugify);
    const check = (icon: MappedIcon) => {
      const tagSlugs = icon.tags.map((tag) => tag.slug);
      if (new Set(tagSlugs).size !== tagSlugs.length) return `duplicate tags ${tagSlugs}`;
      if (tagSlugs.includes(icon.category.slug)) return `tag equals category ${icon.category.slug}`;
      const expected = [...listing(icon.sourceName).slice(1).map(slugify), ...setTagSlugs];
      const missing = expected.filter((slug) => slug !== icon.category.slug && !tagSlugs.includes(slug));
      return missing.length > 0 ? `missing tags ${missing}` : null;
    };
    expect(failures(mapped(prefix).icons, check)).toEqual([]);
  });

  it('keywords are the name tokens plus the tokens of every alias resolving to the icon', () => {
    const { icons } = mapped(prefix);
    const check = (icon: MappedIcon) => {
      const tokens = [...new Set(icon.sourceName.split('-'))];
      if (new Set(icon.keywords).size !== icon.keywords.length) return `duplicate keywords ${icon.keywords}`;
      if (icon.keywords.some((keyword) => keyword !== keyword.toLowerCase())) return 'keyword not lowercase';
      return same(icon.keywords.slice(0, tokens.length), tokens);
    };
    expect(failures(icons, check)).toEqual([]);

    const byName = new Map(icons.map((icon) => [icon.sourceName, icon]));
    const aliasFailures: string[] = [];
    for (const alias of Object.keys(raw.aliases ?? {})) {
      const target = aliasTarget(raw, alias);
      const keywords = target === null ? [] : byName.get(target)!.keywords;
      const missing = alias.split('-').filter((token) => !keywords.includes(token));
      if (missing.length > 0) aliasFailures.push(`${alias} -> ${target}: missing ${missing}`);
    }
    expect(aliasFailures.slice(0, 10)).toEqual([]);
  });

  it('classifies colours by the palette flag', () => {
    const vocabulary: readonly string[] = HUE_NAMES;
    const check = (icon: MappedIcon) => {
      if (info.palette !== true) return same(icon.colors, ['monochrome']);
      const hues = icon.colors.slice(1);
      if (icon.colors[0] !== 'multicolor') return `colors ${icon.colors} do not start with multicolor`;
      if (!hues.every((hue) => vocabulary.includes(hue))) return `unknown hue in ${hues}`;
      return same(hues, [...hues].sort((a, b) => vocabulary.indexOf(a) - vocabulary.indexOf(b)));
    };
    expect(failures(mapped(prefix).icons, check)).toEqual([]);
  });

  it('keeps sizes and bodies of icons without offsets or fractional sizes', () => {
    const check = (icon: MappedIcon) => {
      const entry = raw.icons[icon.sourceName]!;
      const width = entry.width ?? raw.width ?? 16;
      const height = entry.height ?? raw.height ?? 16;
      if (!Number.isInteger(icon.width) || !Number.isInteger(icon.height)) return 'non-integer size';
      if (entry.left || entry.top || !Number.isInteger(width) || !Number.isInteger(height)) return null;
      return same([icon.width, icon.height], [width, height]) ?? (icon.body === sanitizeSvgBody(entry.body) ? null : 'body changed');
    };
    expect(failures(mapped(prefix).icons, check)).toEqual([]);
  });

  it('derives dates within 3 years before lastModified, and no downloads (the gateway counts them)', () => {
    const end = raw.lastModified! * 1000;
    const start = end - PUBLISH_WINDOW_SECONDS * 1000;
    const check = (icon: MappedIcon) => {
      if ('downloads' in icon || 'popularity' in icon) return 'derived downloads or popularity';
      const time = icon.publishedAt.getTime();
      if (!(time <= end && time > start - 1000)) return `publishedAt ${icon.publishedAt.toISOString()}`;
      return icon.premium ? 'premium' : null;
    };
    expect(failures(mapped(prefix).icons, check)).toEqual([]);
  });

  it('maps the set record from info.json and package.json', () => {
    const { set } = mapped(prefix);
    expect(set).toEqual({
      prefix,
      name: info.name,
      author: info.author.name,
      authorUrl: info.author.url ?? null,
      licenseTitle: info.license.title,
      licenseSpdx: info.license.spdx ?? null,
      licenseUrl: info.license.url ?? null,
      premium: false,
      multicolor: info.palette === true,
      version: source.version,
      iconCount: sourceNames.filter((name) => !raw.icons[name]!.hidden).length,
      chars: publishedCharsOf(get(prefix)),
    });
  });

  it('is deterministic: same input, same output, whatever the clock says', () => {
    const first = mapIconSet(source, { premium: true });
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2040-02-29T12:00:00Z'));
    const second = mapIconSet(source, { premium: true });
    expect(second).toEqual(first);
    expect(first.set.premium).toBe(true);
    expect(first.icons.every((icon) => icon.premium)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Spot checks, verified by hand against the source JSON
// ---------------------------------------------------------------------------------------------

describe('spot checks on real sets', () => {
  it('solar: style comes from the declared suffixes (longest wins, *-duotone -> duotone)', () => {
    const { raw, metadata } = get('solar');
    expect(raw.suffixes).toBeUndefined(); // solar declares them in metadata.json
    expect(Object.keys(metadata.suffixes ?? {})).toContain('bold-duotone');
    const expected = (name: string): string => {
      if (name.endsWith('-duotone')) return 'duotone';
      for (const style of ['bold', 'outline', 'linear', 'broken']) if (name.endsWith(`-${style}`)) return style;
      throw new Error(`solar name without a known suffix: ${name}`);
    };
    for (const icon of mapped('solar').icons) expect(icon.style, icon.sourceName).toBe(expected(icon.sourceName));
    expect(iconByName('solar', 'home-bold').style).toBe('bold');
    expect(iconByName('solar', 'home-bold-duotone').style).toBe('duotone');
  });

  it('solar: a hidden icon is mapped but unpublished', () => {
    const { raw } = get('solar');
    expect(raw.icons['4k-bold-duotone']!.hidden).toBe(true);
    expect(iconByName('solar', '4k-bold-duotone').published).toBe(false);
    expect(iconByName('solar', 'home-bold').published).toBe(true);
  });

  it('solar: alias tokens become keywords of the parent', () => {
    expect(get('solar').raw.aliases!['4k-bold']!.parent).toBe('four-k-bold');
    expect(iconByName('solar', 'four-k-bold').keywords).toEqual(['four', 'k', 'bold', '4k']);
  });

  it('mdi: aliases 123, 1-2-3 and one-two-three all land on numeric', () => {
    expect(iconByName('mdi', 'numeric').keywords).toEqual(['numeric', '123', '1', '2', '3', 'one', 'two', 'three']);
  });

  it('mdi: name endings give the style; ambiguous endings need an existing stem', () => {
    const { raw } = get('mdi');
    expect(raw.icons['arrow-down']).toBeDefined();
    expect(raw.icons['format']).toBeUndefined();
    expect(raw.icons['ceiling']).toBeUndefined();
    expect(iconByName('mdi', 'home-outline').style).toBe('outline');
    expect(iconByName('mdi', 'arrow-down-bold').style).toBe('bold');
    expect(iconByName('mdi', 'format-bold').style).toBe('regular');
    expect(iconByName('mdi', 'ceiling-light').style).toBe('regular');
    expect(iconByName('mdi', 'home').style).toBe('regular');

    const withDefault = mapIconSet(get('mdi').source, { premium: false, defaultStyle: 'Filled' });
    const home = withDefault.icons.find((icon) => icon.sourceName === 'home')!;
    const homeOutline = withDefault.icons.find((icon) => icon.sourceName === 'home-outline')!;
    expect([home.style, homeOutline.style]).toEqual(['filled', 'outline']);
  });

  it('mdi: an icon listed in several categories gets the later ones as tags', () => {
    const categories = get('mdi').metadata.categories!;
    const order = Object.keys(categories);
    const name = Object.keys(get('mdi').raw.icons).find(
      (candidate) => order.filter((category) => categories[category]!.includes(candidate)).length >= 2,
    )!;
    const listing = order.filter((category) => categories[category]!.includes(name));
    const icon = iconByName('mdi', name);
    expect(icon.category.name).toBe(listing[0]);
    expect(icon.tags.slice(0, listing.length - 1).map((tag) => tag.name)).toEqual(listing.slice(1));
  });

  it('tabler: -filled variants are filled, the rest use the configured default style', () => {
    const result = mapIconSet(get('tabler').source, { premium: false, defaultStyle: 'outline' });
    const byName = new Map(result.icons.map((icon) => [icon.sourceName, icon]));
    expect(get('tabler').raw.icons['home']).toBeDefined();
    expect(byName.get('home-filled')!.style).toBe('filled');
    expect(byName.get('home')!.style).toBe('outline');
    for (const icon of result.icons) {
      if (icon.sourceName.endsWith('-filled')) expect(icon.style).toBe('filled');
    }
  });

  it('logos: multicolor with hue names read from the body', () => {
    // vue: fill #41b883 (h 153 -> green) and #35495e (h 211, l 0.29 -> blue)
    expect(iconByName('logos', 'vue').colors).toEqual(['multicolor', 'green', 'blue']);
    expect(iconByName('logos', 'vue').style).toBe('color');
    // javascript: #f7df1e square plus a path without fill (SVG default: black)
    expect(get('logos').raw.icons['javascript']!.body).toContain('<path d=');
    expect(iconByName('logos', 'javascript').colors).toEqual(['multicolor', 'yellow', 'black']);
    // logos have their own widths; vue is 256 x 221 (set default width 256)
    expect([iconByName('logos', 'vue').width, iconByName('logos', 'vue').height]).toEqual([256, 221]);
  });

  it('logos: a viewBox offset is folded into the body', () => {
    const entry = get('logos').raw.icons['marko']!;
    expect([entry.left, entry.top, entry.width, entry.height]).toEqual([undefined, 62, 512, 105]);
    const marko = iconByName('logos', 'marko');
    expect([marko.width, marko.height]).toEqual([512, 105]);
    expect(marko.body).toBe(`<g transform="translate(0 -62)">${sanitizeSvgBody(entry.body)}</g>`);
  });

  it('logos: a fractional size is rounded up and the content centred', () => {
    const entry = get('logos').raw.icons['dolt']!;
    expect([entry.width, entry.height]).toEqual([512, 174.067]);
    const dolt = iconByName('logos', 'dolt');
    expect([dolt.width, dolt.height]).toEqual([512, 175]);
    expect(dolt.body).toBe(`<g transform="translate(0 0.4665)">${sanitizeSvgBody(entry.body)}</g>`);
  });

  it('fluent-emoji-flat: skin-tone endings are not styles; categories come from metadata.json', () => {
    const { raw, metadata } = get('fluent-emoji-flat');
    expect(raw.categories).toBeUndefined();
    expect(metadata.categories!['Smileys & Emotion']).toContain('grinning-face');
    expect(raw.icons['man-light']).toBeDefined();
    expect(iconByName('fluent-emoji-flat', 'man-light').style).toBe('color');
    expect(iconByName('fluent-emoji-flat', 'grinning-face').category).toEqual({
      slug: 'smileys-emotion',
      name: 'Smileys & Emotion',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Synthetic set: rules the real sets do not exercise
// ---------------------------------------------------------------------------------------------

const BODY = '<path d="M0 0h1v1z"/>';
function syntheticSource(overrides: { json?: object; metadata?: unknown; info?: unknown } = {}): SetSource {
  return {
    json: {
      prefix: 'demo',
      width: 20,
      icons: {
        zeta: { body: '<path fill="currentColor" d="M0 0h1v1z"/>' },
        'zeta-filled': { body: '<path fill="#f00" d="M0 0h1v1z"/>' },
        'zeta-light': { body: BODY }, // ambiguous ending, stem exists
        'lamp-light': { body: BODY }, // ambiguous ending, no stem
        secret: { body: BODY, hidden: true },
        wide: { body: BODY, width: 32, height: 10.5, left: 1 },
        Bad_Name: { body: BODY },
        'bad-name': { body: BODY },
      },
      aliases: {
        'alpha-beta': { parent: 'zeta' },
        gamma: { parent: 'alpha-beta' },
        'loop-a': { parent: 'loop-b' },
        'loop-b': { parent: 'loop-a' },
        orphan: { parent: 'missing' },
      },
      categories: {
        'Fancy Things': ['zeta', 'gamma', 'unknown-icon'],
        'Other & More': ['zeta-filled', 'alpha-beta'],
      },
      ...overrides.json,
    },
    metadata: overrides.metadata,
    info: overrides.info ?? {
      prefix: 'demo',
      name: 'Demo Set',
      author: { name: 'Someone' },
      license: { title: 'MIT', spdx: 'MIT' },
      category: 'Flags / Maps',
      tags: ['Fancy Things', 'Has Padding'],
    },
    version: '0.0.1',
  };
}
function synthetic(overrides?: Parameters<typeof syntheticSource>[0], defaultStyle?: string) {
  const result = mapIconSet(syntheticSource(overrides), { premium: true, defaultStyle });
  const byName = (name: string) => result.icons.find((icon) => icon.sourceName === name)!;
  return { ...result, byName };
}

describe('synthetic set', () => {
  it('hidden icons are unpublished and not counted', () => {
    const { set, icons, byName } = synthetic();
    expect(icons).toHaveLength(8);
    expect(byName('secret').published).toBe(false);
    expect(set.iconCount).toBe(7);
    expect(set).toMatchObject({ premium: true, authorUrl: null, licenseUrl: null, multicolor: false });
  });

  it('follows alias chains for keywords and categories; ignores broken and circular aliases', () => {
    const { byName } = synthetic();
    expect(byName('zeta').keywords).toEqual(['zeta', 'alpha', 'beta', 'gamma']);
    expect(byName('zeta').category).toEqual({ slug: 'fancy-things', name: 'Fancy Things' });
    // 'alpha-beta' (an alias of zeta) is listed in "Other & More": a tag of zeta, once
    expect(byName('zeta').tags.map((tag) => tag.slug)).toEqual(['other-more', 'has-padding', 'demo-set']);
    expect(byName('zeta-filled').category.slug).toBe('other-more');
    expect(byName('zeta-filled').tags.map((tag) => tag.slug)).toEqual(['fancy-things', 'has-padding', 'demo-set']);
  });

  it('marks the tags that describe the whole set (its tags and name), not those from the icon’s own categories', () => {
    const { byName } = synthetic();
    expect(byName('zeta').tags.map((tag) => [tag.slug, tag.ofSet === true])).toEqual([
      ['other-more', false],
      ['has-padding', true],
      ['demo-set', true],
    ]);
    expect(byName('zeta-filled').tags.map((tag) => [tag.slug, tag.ofSet === true])).toEqual([
      ['fancy-things', true],
      ['has-padding', true],
      ['demo-set', true],
    ]);
  });

  it('falls back to the friendly name of info.category', () => {
    expect(synthetic().byName('secret').category).toEqual({ slug: 'flags-maps', name: 'Flags & Maps' });
    const noCategory = synthetic({ info: { name: 'Demo', author: {}, license: {} } });
    expect(noCategory.byName('secret').category).toEqual({ slug: 'general', name: 'General' });
    expect(noCategory.set).toMatchObject({ author: 'Unknown', licenseTitle: 'Unknown', licenseSpdx: null });
  });

  it('guards slugs and keeps them unique', () => {
    const { icons, byName } = synthetic();
    expect(icons.map((icon) => icon.sourceName).slice(0, 2)).toEqual(['Bad_Name', 'bad-name']);
    expect(byName('Bad_Name').slug).toBe('demo-bad-name');
    expect(byName('bad-name').slug).toBe('demo-bad-name-2');
    expect(new Set(icons.map((icon) => icon.slug)).size).toBe(icons.length);
    for (const icon of icons) expect(icon.slug).toMatch(SLUG);
  });

  it('uses name endings when no suffixes are declared, then the default style', () => {
    const { byName } = synthetic(undefined, 'Outlined');
    expect(byName('zeta-filled').style).toBe('filled');
    expect(byName('zeta-light').style).toBe('light');
    expect(byName('lamp-light').style).toBe('outline');
    expect(byName('zeta').style).toBe('outline');
    expect(synthetic().byName('zeta').style).toBe('regular');
  });

  it('declared suffixes (in metadata) win over endings and the default style, "" labels the rest', () => {
    const { byName } = synthetic({ metadata: { suffixes: { filled: 'Solid', '': 'Two Tone' } } }, 'thin');
    expect(byName('zeta-filled').style).toBe('filled');
    expect(byName('zeta-light').style).toBe('duotone'); // suffixes declared: no ending heuristics
    expect(byName('zeta').style).toBe('duotone');
  });

  it('reads categories from metadata when icons.json has none', () => {
    const { byName } = synthetic({
      json: { categories: undefined },
      metadata: { categories: { Metadata: ['wide'] } },
    });
    expect(byName('wide').category.name).toBe('Metadata');
    expect(byName('zeta').category.name).toBe('Flags & Maps');
  });

  it('multicolor sets: style color, hue names, no ending heuristics', () => {
    const { byName, set } = synthetic({
      info: { name: 'Demo', author: { name: 'A' }, license: { title: 'MIT' }, palette: true },
    });
    expect(set.multicolor).toBe(true);
    expect(byName('zeta-filled')).toMatchObject({ style: 'color', colors: ['multicolor', 'red'] });
    expect(byName('zeta-light').colors).toEqual(['multicolor', 'black']);
    expect(byName('zeta').colors).toEqual(['multicolor']);
  });

  it('sizes: default width from the set, height 16 when none; offsets and fractions folded into the body', () => {
    const { byName } = synthetic();
    expect([byName('zeta').width, byName('zeta').height]).toEqual([20, 16]);
    expect(byName('zeta').body).toBe('<path fill="currentColor" d="M0 0h1v1z"></path>'); // sanitized on import, re-serialized
    expect(byName('wide')).toMatchObject({
      width: 32,
      height: 11,
      body: `<g transform="translate(-1 0.25)">${sanitizeSvgBody(BODY)}</g>`,
    });
  });

  it('dates fall back to a fixed lastModified, never the clock', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-01-01T00:00:00Z'));
    const { icons } = synthetic();
    for (const icon of icons) {
      const seconds = icon.publishedAt.getTime() / 1000;
      expect(seconds).toBeLessThanOrEqual(FALLBACK_LAST_MODIFIED);
      expect(seconds).toBeGreaterThan(FALLBACK_LAST_MODIFIED - PUBLISH_WINDOW_SECONDS - 1);
    }
  });

  it('uses json.info when no info is passed, and rejects missing or foreign info', () => {
    const info = { prefix: 'demo', name: 'Inline', author: { name: 'B' }, license: { title: 'MIT' } };
    const source = syntheticSource({ json: { info } });
    expect(mapIconSet({ ...source, info: undefined }, { premium: false }).set.name).toBe('Inline');
    expect(() => mapIconSet({ ...syntheticSource(), info: undefined }, { premium: false })).toThrow(/info/);
    expect(() => mapIconSet(syntheticSource({ info: { ...info, prefix: 'other' } }), { premium: false })).toThrow(
      /other/,
    );
    expect(() => mapIconSet({ json: { icons: {} }, version: '1' }, { premium: false })).toThrow(/prefix/);
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

describe('colour classifier', () => {
  it.each([
    ['#f00', 'red'],
    ['#0000ff', 'blue'],
    ['#808080', 'gray'],
    ['#000', 'black'],
    ['#FFFFFF', 'white'],
    ['#c0c0c0', 'gray'],
    ['orange', 'orange'],
    ['#ffa500', 'orange'],
    ['gold', 'yellow'],
    ['#ffff00', 'yellow'],
    ['rgb(0, 128, 0)', 'green'],
    ['rgba(0 128 0 / 50%)', 'green'],
    ['hsl(240, 100%, 50%)', 'blue'],
    ['#00ffff', 'blue'],
    ['#800080', 'purple'],
    ['#ff00ff', 'purple'],
    ['#ff69b4', 'pink'],
    ['#ffc0cb', 'pink'],
    ['#8b4513', 'brown'],
    ['#593b39', 'brown'],
    ['#8b0000', 'red'],
    ['ivory', 'white'],
  ])('%s -> %s', (value, hue) => {
    expect(classifyColor(value)).toBe(hue);
  });

  it.each(['currentColor', 'none', 'transparent', 'url', '#0000', 'rgba(255,0,0,0)', '#12', 'chartreuse-ish'])(
    'ignores %s',
    (value) => {
      expect(classifyColor(value)).toBeNull();
    },
  );

  it('parses 8-digit hex with alpha', () => {
    expect(parseColor('#ff000080')).toEqual({ r: 255, g: 0, b: 0, a: 128 / 255 });
  });

  it('reads fill, stroke, stop-color and style declarations, in vocabulary order', () => {
    const body =
      '<defs><linearGradient id="a"><stop offset="0" stop-color="#ff0"/><stop offset="1" stop-color="#ff0"/></linearGradient></defs>' +
      '<path fill="#00f" stroke="#f00" fill-opacity=".5" d="M0 0h1"/><path style="fill: #0f0" d="M1 1h1"/>' +
      '<path fill="url(#a)" d="M2 2h1"/>';
    expect(bodyHues(body)).toEqual(['red', 'yellow', 'green', 'blue']);
  });

  it('adds black only for drawn shapes that fall back to the default fill', () => {
    expect(bodyHues('<path fill="currentColor" d="M0 0"/>')).toEqual([]);
    expect(bodyHues('<path d="M0 0"/>')).toEqual(['black']);
    expect(bodyHues('<g fill="#f00"><path d="M0 0"/></g>')).toEqual(['red']);
    expect(bodyHues('<g fill="none"><path d="M0 0"/></g>')).toEqual([]);
    expect(bodyHues('<mask id="m"><path d="M0 0"/></mask><path fill="#00f" mask="url(#m)" d="M0 0"/>')).toEqual([
      'blue',
    ]);
    expect(bodyHues('<g fill="#f00"><path d="M0 0"/></g><path d="M1 1"/>')).toEqual(['red', 'black']);
  });
});

describe('derived stats', () => {
  it('FNV-1a matches the published test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('is a pure function of prefix, name and lastModified', () => {
    const a = derivePublishedAt('solar', 'home-bold', 1_700_000_000);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2050-01-01T00:00:00Z'));
    expect(derivePublishedAt('solar', 'home-bold', 1_700_000_000)).toEqual(a);
    expect(derivePublishedAt('solar', 'home-linear', 1_700_000_000)).not.toEqual(a);
  });
});

describe('text and style helpers', () => {
  it('slugify', () => {
    expect(slugify('Smileys & Emotion')).toBe('smileys-emotion');
    expect(slugify('Account / User')).toBe('account-user');
    expect(slugify('  Crème Brûlée!  ')).toBe('creme-brulee');
  });

  it('displayName', () => {
    expect(displayName('arrow-left-bold')).toBe('Arrow Left Bold');
    expect(displayName('4k-bold-duotone')).toBe('4k Bold Duotone');
    expect(displayName('home-2')).toBe('Home 2');
  });

  it('compareByteOrder agrees with UTF-8 byte order where JS string order does not', () => {
    const samples = ['b', 'a-b', 'a', '\uffff', '\u{10000}', 'é', 'Z', 'a0'];
    const bytes = [...samples].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...samples].sort(compareByteOrder)).toEqual(bytes);
    expect('\u{10000}' < '\uffff').toBe(true); // the case the helper exists for
  });

  it('normalizeStyle maps labels to the vocabulary', () => {
    expect(normalizeStyle('Line Duotone')).toBe('duotone');
    expect(normalizeStyle('Bold Duotone')).toBe('duotone');
    expect(normalizeStyle('Solid')).toBe('filled');
    expect(normalizeStyle('Outlined')).toBe('outline');
    expect(normalizeStyle('Glyph')).toBe('glyph');
  });

  it('friendlyCategory', () => {
    expect(friendlyCategory('UI 24px')).toBe('Interface');
    expect(friendlyCategory('UI 16px / 32px')).toBe('Interface');
    expect(friendlyCategory('UI Other / Mixed Grid')).toBe('Interface');
    expect(friendlyCategory('Flags / Maps')).toBe('Flags & Maps');
    expect(friendlyCategory('Logos')).toBe('Logos');
    expect(friendlyCategory('Material')).toBe('Material');
    expect(friendlyCategory(null)).toBe('General');
  });

  it("keeps a set's characters map for what it publishes: a hidden icon's character is left out, an empty map is none", () => {
    const { raw, chars } = get('mdi');
    const hidden = Object.keys(raw.icons).find((name) => raw.icons[name]!.hidden)!;
    const source = { ...get('mdi').source, chars: { ...chars, e000: hidden, e001: 'no-such-icon', 'not-hex': 'home' } };
    const kept = mapIconSet(source, { premium: false }).set.chars!;
    expect(kept).toEqual(chars); // every character of the package names a published icon
    expect(kept.f02dc).toBe('home');
    expect(mapped('fluent-emoji-flat').set.chars!['1f9d1-200d-1f3a8']).toBe('artist'); // a sequence
    expect(mapped('logos').set.chars).toBeNull();
    // An IconifyJSON file (what `export` writes) holds the map within.
    const withinJson = { ...get('mdi').source, chars: undefined, json: { ...(get('mdi').source.json as object), chars: { f02dc: 'home', e002: hidden } } };
    expect(mapIconSet(withinJson, { premium: false }).set.chars).toEqual({ f02dc: 'home' });
  });

  // Imports skip a set whose source, options and MAPPING_VERSION are unchanged, so a change of
  // the rules that leaves MAPPING_VERSION alone would never reach an existing catalogue. The
  // mapping of the five pinned sets is recorded with the version it belongs to: when this fails,
  // the output changed (the rules, or an @iconify-json package's data); bump MAPPING_VERSION if
  // the rules changed, then record the new digest.
  it('MAPPING_VERSION changes whenever the mapping of the pinned sets does', () => {
    const digest = createHash('sha256');
    for (const prefix of PREFIXES) digest.update(JSON.stringify(mapped(prefix)));
    expect({ version: MAPPING_VERSION, digest: digest.digest('hex') }).toEqual({ version: 6, digest: '9544bb952c4e2235a69a8d1ed27260203ada0cc47703cb06a58afabb25b6b574' });
  });
});
