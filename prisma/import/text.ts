// Text helpers for the icon-set mapper: slugs, display names, name tokens and byte-order sorting.

/**
 * Lowercase, URL-safe slug: only [a-z0-9] runs joined by single hyphens.
 * Accents are stripped (NFKD), every other character becomes a separator.
 * `Smileys & Emotion` -> `smileys-emotion`, `Account / User` -> `account-user`.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Tokens of an icon name: split on `-`, lowercase, empty parts dropped. */
export function nameTokens(name: string): string[] {
  return name
    .toLowerCase()
    .split('-')
    .filter((token) => token.length > 0);
}

/** Display name of an icon name: `arrow-left-bold` -> `Arrow Left Bold`, `4k-bold` -> `4k Bold`. */
export function displayName(name: string): string {
  return name
    .split('-')
    .filter((token) => token.length > 0)
    .map((token) => token.charAt(0).toUpperCase() + token.slice(1))
    .join(' ');
}

/**
 * Compares strings in code-point order, which is the byte order of their UTF-8 encodings.
 * (`<` on JS strings compares UTF-16 code units, which differs for characters above U+FFFF
 * versus U+E000..U+FFFF; this remaps the code units so the two agree.)
 */
export function compareByteOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) return codePointRank(ca) - codePointRank(cb);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000; // surrogates sort after the BMP
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
