// Completions while typing: the words of the catalogue (icon names, keywords, tags, categories)
// that start with a prefix, ranked by how many published icons they reach. The vocabulary is
// built in this process from one read of the icons (about 5 s on the full catalogue of 380,909
// icons, 36,000 words) and kept per database client, sorted, so a completion is a binary search
// and a scan of the words sharing the prefix: no database round trip. It is rebuilt in the
// background when the catalogue's version (catalogue_state, incremented by every import
// transaction) has changed, checked at most every VERSION_CHECK_MS; the old one answers meanwhile.
import { logger } from '../../lib/logger.ts';
import { Prisma, type PrismaClient } from '../../prisma/generated/client.ts';

export interface Suggestion {
  /** The query with its last word completed. */
  text: string;
  /** Published icons the completed word reaches. */
  iconCount: number;
}

const VERSION_CHECK_MS = 5_000;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;
const MIN_WORD_LENGTH = 2;

export class Vocabulary {
  private constructor(
    /** Sorted by code unit, as binary search compares them. */
    private readonly words: string[],
    private readonly counts: Int32Array,
  ) {}

  /** Counts each word once per text (an icon's words), whatever its case. */
  static fromTexts(texts: Iterable<string>): Vocabulary {
    const counts = new Map<string, number>();
    const seen = new Set<string>();
    for (const text of texts) {
      seen.clear();
      for (const word of text.toLowerCase().split(WORD_SEPARATORS)) {
        if (word.length < MIN_WORD_LENGTH || seen.has(word)) continue;
        seen.add(word);
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
    const words = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return new Vocabulary(words, Int32Array.from(words, (word) => counts.get(word)!));
  }

  get size(): number {
    return this.words.length;
  }

  /** The `limit` words starting with `prefix` that reach the most icons (ties: alphabetical). */
  complete(prefix: string, limit: number): { word: string; count: number }[] {
    let low = 0;
    let high = this.words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.words[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const best: { word: string; count: number }[] = [];
    for (let i = low; i < this.words.length && this.words[i]!.startsWith(prefix); i++) {
      const count = this.counts[i]!;
      if (best.length === limit && count <= best[limit - 1]!.count) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.count < count) at--;
      best.splice(at, 0, { word: this.words[i]!, count });
      if (best.length > limit) best.pop();
    }
    return best;
  }
}

interface Kept {
  vocabulary: Promise<Vocabulary>;
  version: bigint;
  checkedAt: number;
  rebuilding: boolean;
  /** Why the last rebuild failed, while rebuilds keep failing: logged once, not at every check. */
  failure?: string;
}

/** One vocabulary per database client, so two databases in one process never share words. */
const perDatabase = new WeakMap<PrismaClient, Kept>();

async function catalogueVersion(prisma: PrismaClient): Promise<bigint> {
  const [row] = await prisma.$queryRaw<{ version: bigint | number | null }[]>(Prisma.sql`SELECT version FROM catalogue_state WHERE id = 1`);
  return BigInt(row?.version ?? 0);
}

async function buildVocabulary(prisma: PrismaClient): Promise<Vocabulary> {
  const rows = await prisma.$queryRaw<{ t: string }[]>(Prisma.sql`
    SELECT name || ' ' || array_to_string(keywords, ' ') || ' ' || array_to_string(tag_names, ' ') || ' ' || category_name AS t
    FROM icons WHERE published`);
  return Vocabulary.fromTexts(rows.map((row) => row.t));
}

function refreshIfChanged(prisma: PrismaClient, kept: Kept): void {
  if (kept.rebuilding || performance.now() - kept.checkedAt < VERSION_CHECK_MS) return;
  kept.rebuilding = true;
  kept.checkedAt = performance.now();
  void (async () => {
    try {
      const version = await catalogueVersion(prisma);
      if (version === kept.version) return;
      const vocabulary = await buildVocabulary(prisma);
      kept.vocabulary = Promise.resolve(vocabulary);
      kept.version = version;
      if (kept.failure) logger.info({ msg: 'suggest vocabulary rebuilt after failing', words: vocabulary.size });
      kept.failure = undefined;
    } catch (error) {
      // The kept vocabulary answers (stale, not wrong) and the next check tries again; the
      // first failure of a run is logged so that a /suggest left behind an import is seen.
      const failure = String((error as Error)?.message ?? error).trim().split('\n').at(-1);
      if (!kept.failure) logger.warn({ msg: 'suggest vocabulary not rebuilt after a catalogue change: /suggest answers from the previous catalogue until a later check rebuilds it', error: failure });
      kept.failure = failure;
    } finally {
      kept.rebuilding = false;
      kept.checkedAt = performance.now();
    }
  })();
}

async function vocabularyOf(prisma: PrismaClient): Promise<Vocabulary> {
  const kept = perDatabase.get(prisma);
  if (kept) {
    refreshIfChanged(prisma, kept);
    return kept.vocabulary;
  }
  const first: Kept = { vocabulary: Promise.resolve(Vocabulary.fromTexts([])), version: 0n, checkedAt: performance.now(), rebuilding: true };
  first.vocabulary = (async () => {
    const version = await catalogueVersion(prisma);
    const vocabulary = await buildVocabulary(prisma);
    first.version = version;
    return vocabulary;
  })().finally(() => {
    first.rebuilding = false;
    first.checkedAt = performance.now();
  });
  // A failed first build is forgotten, so the next request tries again.
  first.vocabulary.catch(() => perDatabase.delete(prisma));
  perDatabase.set(prisma, first);
  return first.vocabulary;
}

/** Completions of the last word of `q` (already trimmed, at least one character). */
export async function suggest(prisma: PrismaClient, q: string, limit: number): Promise<Suggestion[]> {
  const lower = q.toLowerCase();
  const cut = lower.search(/[^\p{L}\p{N}]+[\p{L}\p{N}]*$/u);
  const [head, last] = cut === -1 ? ['', lower] : [lower.slice(0, cut).concat(' '), lower.slice(cut).replace(WORD_SEPARATORS, '')];
  if (last === '') return [];
  const vocabulary = await vocabularyOf(prisma);
  return vocabulary.complete(last, limit).map(({ word, count }) => ({ text: `${head}${word}`, iconCount: count }));
}
