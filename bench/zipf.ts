// A Zipf sampler over ranks 0..n-1: rank k (0-based) is drawn with probability proportional to
// 1 / (k + 1)^s. The bench's Zipf mix draws its search queries this way, so a few are asked
// very often (cache hits) and most rarely (misses), as real search traffic is.
import type { Random } from './random.ts';

export interface ZipfSampler {
  /** The next rank drawn. */
  next(): number;
  /** The probability of rank k. */
  probability(rank: number): number;
}

export function zipfSampler(n: number, s: number, random: Random): ZipfSampler {
  if (!Number.isInteger(n) || n < 1) throw new Error(`Zipf: n must be a whole number of at least 1 (got ${n})`);
  if (!(s >= 0)) throw new Error(`Zipf: s must be at least 0 (got ${s})`);
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / (k + 1) ** s;
    cumulative[k] = total;
  }
  return {
    next: () => {
      const target = random.next() * total;
      // The first rank whose cumulative weight exceeds the target.
      let low = 0;
      let high = n - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (cumulative[middle]! > target) high = middle;
        else low = middle + 1;
      }
      return low;
    },
    probability: (rank) => (rank >= 0 && rank < n ? 1 / (rank + 1) ** s / total : 0),
  };
}
