// A deterministic stand-in for what the source data does not have (the publication date),
// derived from a stable hash of `${prefix}:${sourceName}`. No clock, no randomness: the same
// icon always gets the same date.

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

/**
 * The publication date of one icon: spread over the three years before its set's `lastModified`.
 * (Downloads and popularity are no longer derived: the gateway counts real downloads, and
 * popularity is generated from them and the icon's concept; see the icon_downloads migration.)
 * @param lastModified the set's `lastModified` in unix seconds (FALLBACK_LAST_MODIFIED if absent)
 */
export function derivePublishedAt(prefix: string, sourceName: string, lastModified: number): Date {
  const hash = fnv1a32(`${prefix}:${sourceName}`);
  const ageSeconds = Math.floor(uniform(hash, 2) * PUBLISH_WINDOW_SECONDS);
  return new Date((Math.floor(lastModified) - ageSeconds) * 1000);
}
