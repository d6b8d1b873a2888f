// The search vocabulary (`search_words`: every lexeme of the published icons and how many icons
// it occurs in) held in memory, so that typo correction is decided here and only the
// corrections that exist travel to the database (before, every one-edit variant of every
// 4-20 letter token did, about 5 KB of bind values per statement). 36,108 words on the full
// catalogue: a sorted array, a running sum of their icon counts and a map, about 4 MB.
//
// A copy is tagged with `catalogue_state.search_data_version`, read in the same statement
// (one snapshot). Every search page reads the current version beside its rows (count-cache.ts),
// and a search that finds its copy older loads the vocabulary again and runs once more, so a
// result is never decided on a vocabulary older than the one its page was read with.
//
// The same statement reads `search_term_totals`: the exact totals of the one-word searches that
// match the most icons, counted by the refresh at one catalogue version (refresh-search.ts).
import type { Reads } from '../../../prisma/reads.ts';
import { Prisma } from '../../../prisma/generated/client.ts';
import type { Counted } from '../count-cache.ts';

export class Vocabulary {
  private readonly ndocs = new Map<string, number>();
  private readonly totals = new Map<string, Counted>();
  /** sums[i]: icons of words[0..i) (an upper bound of icons: a sum over words). */
  private readonly sums: Float64Array;

  private constructor(
    readonly version: number,
    private readonly words: string[],
    ndocs: number[],
  ) {
    this.sums = new Float64Array(words.length + 1);
    words.forEach((word, index) => {
      this.ndocs.set(word, ndocs[index]!);
      this.sums[index + 1] = this.sums[index]! + ndocs[index]!;
    });
  }

  /** Words in code-unit order, with their icon counts; `totals`: kept totals of one-token searches. */
  static of(
    version: number,
    entries: readonly (readonly [word: string, ndoc: number])[],
    totals: Iterable<readonly [token: string, kept: Counted]> = [],
  ): Vocabulary {
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const vocabulary = new Vocabulary(
      version,
      sorted.map(([word]) => word),
      sorted.map(([, ndoc]) => ndoc),
    );
    for (const [token, kept] of totals) vocabulary.totals.set(token, kept);
    return vocabulary;
  }

  /** The total of a search for this one token without filters, as counted at refresh; undefined when not kept. */
  totalOf(token: string): Counted | undefined {
    return this.totals.get(token);
  }

  /** Icons of the word; undefined when it is not a word of the vocabulary. */
  iconsOf(word: string): number | undefined {
    return this.ndocs.get(word);
  }

  /** Icons of the words that start with `prefix` (itself included), summed. */
  iconsStartingWith(prefix: string): number {
    const first = this.lowerBound(prefix);
    let end = first;
    // Words starting with the prefix are one run of the sorted array (any lexicographic order).
    let step = 1;
    while (end + step <= this.words.length && this.words[end + step - 1]!.startsWith(prefix)) {
      end += step;
      step *= 2;
    }
    while (step > 1) {
      step /= 2;
      if (end + step <= this.words.length && this.words[end + step - 1]!.startsWith(prefix)) end += step;
    }
    return this.sums[end]! - this.sums[first]!;
  }

  private lowerBound(text: string): number {
    let low = 0;
    let high = this.words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.words[middle]! < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const LOAD = Prisma.sql`SELECT coalesce((SELECT search_data_version FROM catalogue_state WHERE id = 1), 0) AS version,
  coalesce((SELECT array_agg(word) FROM search_words), '{}') AS words,
  coalesce((SELECT array_agg(ndoc) FROM search_words), '{}') AS ndocs,
  coalesce((SELECT array_agg(token ORDER BY token) FROM search_term_totals), '{}') AS total_tokens,
  coalesce((SELECT array_agg(icons ORDER BY token) FROM search_term_totals), '{}') AS totals,
  coalesce((SELECT array_agg(catalogue_version ORDER BY token) FROM search_term_totals), '{}') AS total_versions`;

interface LoadRow {
  version: number | string;
  words: string[];
  ndocs: number[];
  total_tokens: string[];
  totals: number[];
  total_versions: number[];
}

export async function loadVocabulary(reads: Reads): Promise<Vocabulary> {
  const [row] = await reads.rows<LoadRow>('search_vocabulary', LOAD);
  const words = row?.words ?? [];
  const ndocs = row?.ndocs ?? [];
  const totals = row?.totals ?? [];
  const versions = row?.total_versions ?? [];
  return Vocabulary.of(
    Number(row?.version ?? 0),
    words.map((word, index) => [word, ndocs[index]!] as const),
    (row?.total_tokens ?? []).map((token, index) => [token, { total: totals[index]!, version: Number(versions[index]) }] as const),
  );
}

/** A database's vocabulary: loaded on first use, and again when a search finds a newer version. */
export interface VocabularyHolder {
  current(): Promise<Vocabulary>;
  /** A vocabulary of at least `version` (searches finding theirs old share one load). */
  atLeast(version: number): Promise<Vocabulary>;
}

export function vocabularyHolder(reads: Reads): VocabularyHolder {
  let loading: Promise<Vocabulary> | undefined;
  const load = () => {
    const next = loadVocabulary(reads);
    loading = next;
    // A failed load is not kept: the next search tries again.
    next.catch(() => {
      if (loading === next) loading = undefined;
    });
    return next;
  };
  return {
    current: () => loading ?? load(),
    async atLeast(version) {
      const before = loading ?? load();
      const held = await before;
      if (held.version >= version) return held;
      if (loading === before) load();
      return loading ?? load();
    },
  };
}
