// Style of an icon (bold, outline, filled, ...) from the set's declared suffixes/prefixes or,
// failing that, from common name endings.

import { slugify } from './text.ts';

/** Labels and name endings -> the style vocabulary. Labels not listed are kept as their slug. */
const STYLE_WORDS: ReadonlyMap<string, string> = new Map([
  ['bold', 'bold'],
  ['outline', 'outline'],
  ['outlined', 'outline'],
  ['linear', 'linear'],
  ['broken', 'broken'],
  ['duotone', 'duotone'],
  ['twotone', 'duotone'],
  ['two-tone', 'duotone'],
  ['filled', 'filled'],
  ['fill', 'filled'],
  ['solid', 'filled'],
  ['thin', 'thin'],
  ['light', 'light'],
  ['rounded', 'rounded'],
  ['round', 'rounded'],
  ['sharp', 'sharp'],
  ['regular', 'regular'],
  ['normal', 'regular'],
  ['color', 'color'],
  ['colour', 'color'],
]);

/** Words of icon names that only say a style (`outline`, `bold`, `fill`...): not part of what an icon shows. */
export const STYLE_NAME_WORDS: ReadonlySet<string> = new Set([...STYLE_WORDS.keys()].filter((word) => !word.includes('-')));

/** Maps a suffix label or configured style to the vocabulary: `Line Duotone` -> `duotone`. */
export function normalizeStyle(label: string): string {
  const slug = slugify(label);
  const known = STYLE_WORDS.get(slug);
  if (known) return known;
  if (/-(duotone|twotone|two-tone)$/.test(slug)) return 'duotone';
  return slug || 'regular';
}

/** Name endings recognised when a set declares no suffixes or prefixes. */
const CLEAR_ENDINGS = new Set(['outline', 'outlined', 'filled', 'solid', 'duotone', 'twotone']);
/**
 * Endings that are also ordinary words (`format-bold`, `ceiling-light`, `format-color-fill`):
 * they count only when the name without the ending is itself an icon or alias of the set.
 */
const AMBIGUOUS_ENDINGS = new Set(['fill', 'bold', 'thin', 'light', 'rounded', 'sharp']);

export interface StyleRules {
  /** The set's `suffixes` (suffix -> label); the key `""` labels names without a suffix. */
  suffixes?: Readonly<Record<string, string>>;
  /** The set's `prefixes` (prefix -> label); the key `""` labels names without a prefix. */
  prefixes?: Readonly<Record<string, string>>;
  multicolor: boolean;
  defaultStyle?: string;
  /** Every icon and alias name of the set (for the stem check of ambiguous endings). */
  names: ReadonlySet<string>;
}

/** Builds the style function of one set. */
export function createStyleResolver(rules: StyleRules): (name: string) => string {
  const byLengthDesc = (a: [string, string], b: [string, string]) => b[0].length - a[0].length;
  const suffixes = Object.entries(rules.suffixes ?? {})
    .filter(([key]) => key !== '')
    .sort(byLengthDesc);
  const prefixes = Object.entries(rules.prefixes ?? {})
    .filter(([key]) => key !== '')
    .sort(byLengthDesc);
  const declared = suffixes.length > 0 || prefixes.length > 0;
  const unmarkedLabel = rules.suffixes?.[''] ?? rules.prefixes?.[''];
  const fallback =
    unmarkedLabel !== undefined
      ? normalizeStyle(unmarkedLabel || 'regular')
      : rules.defaultStyle
        ? normalizeStyle(rules.defaultStyle)
        : rules.multicolor
          ? 'color'
          : 'regular';
  // Multicolor sets use endings such as -light/-dark/-medium for skin tones and themes.
  const useEndings = !declared && !rules.multicolor;

  return (name: string): string => {
    for (const [suffix, label] of suffixes) {
      if (name.length > suffix.length && name.endsWith(`-${suffix}`)) return normalizeStyle(label || suffix);
    }
    for (const [prefix, label] of prefixes) {
      if (name.length > prefix.length && name.startsWith(`${prefix}-`)) return normalizeStyle(label || prefix);
    }
    if (useEndings) {
      const dash = name.lastIndexOf('-');
      if (dash > 0) {
        const ending = name.slice(dash + 1);
        if (CLEAR_ENDINGS.has(ending)) return STYLE_WORDS.get(ending)!;
        if (AMBIGUOUS_ENDINGS.has(ending) && rules.names.has(name.slice(0, dash))) {
          return STYLE_WORDS.get(ending)!;
        }
      }
    }
    return fallback;
  };
}
