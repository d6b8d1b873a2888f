// Deterministic stand-ins for numbers the source data does not have (downloads, popularity,
// publication date), derived from a stable hash of `${prefix}:${sourceName}`. No clock, no
// randomness: the same icon always gets the same numbers.

/** 32-bit FNV-1a over the string's UTF-16 code units. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's 32-bit finaliser, applied to the hash combined with a stream number. */
function mix32(hash: number, stream: number): number {
  let x = (hash ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform number in the open interval (0, 1) for the given hash and stream. */
function uniform(hash: number, stream: number): number {
  return (mix32(hash, stream) + 0.5) / 4294967296;
}

const DAY_SECONDS = 86_400;
/** Publication dates are spread over this many seconds before the set's `lastModified`. */
export const PUBLISH_WINDOW_SECONDS = 3 * 365 * DAY_SECONDS;
/** Used when a set has no `lastModified`: 2025-01-01T00:00:00Z. */
export const FALLBACK_LAST_MODIFIED = Date.UTC(2025, 0, 1) / 1000;

/** Log-normal downloads: median 150, sigma 1.55, z clamped to [-3, 4.75] (max about 236,000). */
const DOWNLOADS_MEDIAN = 150;
const DOWNLOADS_SIGMA = 1.55;
const Z_MIN = -3;
const Z_MAX = 4.75;
/** Recency boost: up to +25 % for an icon published at `lastModified`, halving every 180 days. */
const RECENCY_BOOST = 0.25;
const RECENCY_HALF_LIFE_DAYS = 180;

export interface DerivedStats {
  downloads: number;
  popularity: number;
  publishedAt: Date;
}

/**
 * Popularity score: log10(1 + downloads) scaled by a recency boost of up to 25 % that halves
 * every 180 days of age (age measured back from the set's `lastModified`, not from today).
 * Rounded to 4 decimals.
 */
export function popularityScore(downloads: number, ageDays: number): number {
  const boost = 1 + RECENCY_BOOST * 0.5 ** (Math.max(0, ageDays) / RECENCY_HALF_LIFE_DAYS);
  return Math.round(Math.log10(1 + downloads) * boost * 10_000) / 10_000;
}

/**
 * Downloads, popularity and publication date of one icon.
 * @param lastModified the set's `lastModified` in unix seconds (FALLBACK_LAST_MODIFIED if absent)
 */
export function deriveStats(prefix: string, sourceName: string, lastModified: number): DerivedStats {
  const hash = fnv1a32(`${prefix}:${sourceName}`);

  // Box-Muller transform of two hash streams into a standard normal z.
  const u1 = uniform(hash, 0);
  const u2 = uniform(hash, 1);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  const clampedZ = Math.min(Z_MAX, Math.max(Z_MIN, z));
  const downloads = Math.max(1, Math.round(DOWNLOADS_MEDIAN * Math.exp(DOWNLOADS_SIGMA * clampedZ)));

  const ageSeconds = Math.floor(uniform(hash, 2) * PUBLISH_WINDOW_SECONDS);
  const publishedAt = new Date((Math.floor(lastModified) - ageSeconds) * 1000);

  return { downloads, popularity: popularityScore(downloads, ageSeconds / DAY_SECONDS), publishedAt };
}
