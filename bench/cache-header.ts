// The X-Cache header of every response a run received, counted: how many of a scenario's
// responses came from the gateway's response cache (HIT, or STALE during an outage) and how
// many were computed (MISS). A distinct-URL scenario that shows hits is not measuring misses.

export interface CacheCounts {
  hit: number;
  miss: number;
  stale: number;
  /** Responses without the header (the plain server, errors, GraphQL). */
  none: number;
  /** Any other value. */
  other: number;
}

export const emptyCacheCounts = (): CacheCounts => ({ hit: 0, miss: 0, stale: 0, none: 0, other: 0 });

/** Counts one response's X-Cache value (undefined: no header; a repeated header counts by its first value). */
export function countCacheHeader(counts: CacheCounts, value: string | string[] | undefined): void {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) {
    counts.none++;
    return;
  }
  switch (first.trim().toUpperCase()) {
    case 'HIT':
      counts.hit++;
      break;
    case 'MISS':
      counts.miss++;
      break;
    case 'STALE':
      counts.stale++;
      break;
    default:
      counts.other++;
  }
}

export function addCacheCounts(into: CacheCounts, from: CacheCounts): void {
  into.hit += from.hit;
  into.miss += from.miss;
  into.stale += from.stale;
  into.none += from.none;
  into.other += from.other;
}

/** Share of the responses with X-Cache that were served from the cache (HIT or STALE); NaN when none had the header. */
export function hitRate(counts: CacheCounts): number {
  const withHeader = counts.hit + counts.miss + counts.stale + counts.other;
  return withHeader === 0 ? NaN : (counts.hit + counts.stale) / withHeader;
}

/** A header's value from a name -> value object whose names keep the case they were sent in. */
export function headerValue(headers: Record<string, string | string[]>, lowercaseName: string): string | string[] | undefined {
  for (const name in headers) if (name.toLowerCase() === lowercaseName) return headers[name];
  return undefined;
}
