// A seeded random source for the bench's URL lists: the same seed gives the same lists on every
// machine and run (Math.random would not), so two gateways, or two commits, get the same traffic.
import prand from 'pure-rand';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  below(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

const TWO_TO_32 = 2 ** 32;

export function seededRandom(seed: number): Random {
  const generator = prand.xoroshiro128plus(seed);
  const next = () => (generator.unsafeNext() >>> 0) / TWO_TO_32;
  const below = (n: number) => Math.floor(next() * n);
  return {
    next,
    below,
    pick: <T>(items: readonly T[]) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[below(items.length)]!;
    },
  };
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The items in the order of a weighted draw without replacement (Efraimidis-Spirakis: each item
 * gets the key u^(1/weight), largest first), so heavier items tend to come first.
 */
export function weightedOrder<T>(items: readonly T[], weight: (item: T) => number, random: Random): T[] {
  const keyed = items.map((item) => ({ item, key: Math.log(Math.max(random.next(), Number.MIN_VALUE)) / Math.max(weight(item), Number.MIN_VALUE) }));
  keyed.sort((a, b) => b.key - a.key);
  return keyed.map(({ item }) => item);
}
