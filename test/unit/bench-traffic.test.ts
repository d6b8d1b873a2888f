// The bench's long-tail traffic (issue 12): the generated query and URL lists, the Zipf sampler,
// the shared URL cursors and the X-Cache counting. Pure code, checked on a made-up vocabulary.
import { describe, expect, it } from 'vitest';
import { countCacheHeader, emptyCacheCounts, headerValue, hitRate } from '../../bench/cache-header.ts';
import { generateQueries, isPlainWord, kindCounts, oneEdit, PREFIX_LETTERS, QUERY_MIX, queriesInMix, type SearchVocabulary, TYPO_MIN_LETTERS } from '../../bench/query-mix.ts';
import { seededRandom } from '../../bench/random.ts';
import { listUrls, singleIconPath, singleIconPicks, svgFileUrls, type ListVocabulary } from '../../bench/url-lists.ts';
import { longTailScenarios } from '../../bench/long-tail.ts';
import { distinctUrls, zipfUrls } from '../../bench/url-source.ts';
import { bucketOf, packageOf } from '../../bench/profile-summary.ts';
import { namePhrases } from '../../bench/vocabulary.ts';
import { zipfSampler } from '../../bench/zipf.ts';

/** Whether b is a one deleted, inserted, replaced or swapped-neighbours letter away from a. */
function isOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length < long.length) return short.slice(i) === long.slice(i + 1); // one insertion
  if (short.slice(i + 1) === long.slice(i + 1)) return true; // one replacement
  return short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2); // a swap
}

/** A vocabulary of made-up words: `size` distinct plain words, a few that are not plain, and phrases of them. */
function vocabulary(size: number): SearchVocabulary {
  const random = seededRandom(7);
  const words = new Map<string, number>();
  while (words.size < size) {
    const length = 2 + random.below(9);
    let word = '';
    for (let i = 0; i < length; i++) word += 'abcdefghijklmnopqrstuvwxyz'[random.below(26)];
    words.set(word, 1 + random.below(1000));
  }
  const list = [...words].map(([word, ndoc]) => ({ word, ndoc }));
  const plain = list.map(({ word }) => word);
  const phrases = namePhrases(Array.from({ length: size }, (_, i) => `${plain[i]} ${plain[(i * 7 + 3) % size]} ${plain[(i * 13 + 5) % size]}`));
  return { words: [...list, { word: '24px', ndoc: 500 }, { word: 'x', ndoc: 900 }], phrases };
}

describe('generateQueries (bench/query-mix.ts)', () => {
  const vocab = vocabulary(3_000);
  const words = new Set(vocab.words.filter(({ word }) => isPlainWord(word)).map(({ word }) => word));
  const phrases = new Set(vocab.phrases.map(({ text }) => text));
  const queries = generateQueries(vocab, 4_000, 12);

  it('is deterministic: the same vocabulary and seed give the same list, another seed another', () => {
    expect(generateQueries(vocab, 4_000, 12)).toEqual(queries);
    const other = generateQueries(vocab, 4_000, 13);
    expect(other).not.toEqual(queries);
    expect(other.filter((query, i) => query.text === queries[i]!.text).length).toBeLessThan(100);
  });

  it('gives the number asked for, all distinct', () => {
    expect(queries).toHaveLength(4_000);
    expect(new Set(queries.map(({ text }) => text)).size).toBe(4_000);
  });

  it('keeps the documented mix of words, phrases, prefixes and typos, shuffled together', () => {
    const counts = kindCounts(queries);
    expect(counts).toEqual({ word: 1_800, phrase: 1_000, prefix: 600, typo: 600 });
    expect(Object.values(QUERY_MIX).reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 10);
    // Shuffled: each quarter of the list holds every kind in about the same shares.
    const firstQuarter = kindCounts(queries.slice(0, 1_000));
    expect(firstQuarter.word).toBeGreaterThan(350);
    expect(firstQuarter.typo).toBeGreaterThan(100);
  });

  it('makes each kind as promised', () => {
    for (const { text, kind } of queries) {
      if (kind === 'word') expect(words.has(text), text).toBe(true);
      if (kind === 'phrase') {
        expect(phrases.has(text), text).toBe(true);
        expect(text.split(' ')).toHaveLength(2);
      }
      if (kind === 'prefix') {
        expect(PREFIX_LETTERS).toContain(text.length);
        expect(words.has(text), text).toBe(false);
        expect([...words].some((word) => word.length > text.length && word.startsWith(text)), text).toBe(true);
      }
      if (kind === 'typo') {
        expect(words.has(text), text).toBe(false);
        const near = [...words].filter((word) => word.length >= TYPO_MIN_LETTERS && Math.abs(word.length - text.length) <= 1);
        expect(near.some((word) => isOneEdit(word, text)), text).toBe(true);
      }
      expect(text).not.toMatch(/\d/); // "24px" is not a word people type
    }
  });

  it('prefers common words (weighted by the number of icons holding them)', () => {
    const ndoc = new Map(vocab.words.map(({ word, ndoc: n }) => [word, n]));
    const chosen = queries.filter(({ kind }) => kind === 'word').map(({ text }) => ndoc.get(text)!);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean(chosen)).toBeGreaterThan(mean([...words].map((word) => ndoc.get(word)!)) * 1.15);
  });

  it('fills what a small vocabulary cannot give with typos, still distinct', () => {
    const small = generateQueries(vocabulary(200), 1_000, 1);
    expect(small).toHaveLength(1_000);
    expect(new Set(small.map(({ text }) => text)).size).toBe(1_000);
    const counts = kindCounts(small);
    expect(counts.word).toBe(200);
    expect(counts.typo).toBeGreaterThan(150);
  });

  it('queriesInMix: the most queries a vocabulary gives in the documented mix, no typo filling', () => {
    const small = vocabulary(200);
    const most = queriesInMix(small);
    expect(most).toBe(Math.floor(Math.min(small.words.filter(({ word }) => isPlainWord(word)).length / QUERY_MIX.word, small.phrases.length / QUERY_MIX.phrase)));
    const counts = kindCounts(generateQueries(small, most, 1));
    expect(counts.word).toBe(Math.round(most * QUERY_MIX.word));
    expect(Math.abs(counts.typo - most * QUERY_MIX.typo)).toBeLessThanOrEqual(2);
  });

  it('oneEdit makes exactly one edit', () => {
    expect([isOneEdit('arrow', 'arow'), isOneEdit('arrow', 'arorw'), isOneEdit('arrow', 'arrox'), isOneEdit('arrow', 'xarrow')]).toEqual([true, true, true, true]);
    expect([isOneEdit('arrow', 'aorrw'), isOneEdit('arrow', 'ar'), isOneEdit('arrow', 'arrow'), isOneEdit('arrow', 'worra')]).toEqual([false, false, false, false]);
    const random = seededRandom(3);
    for (let i = 0; i < 500; i++) {
      const typo = oneEdit('keyboard', random);
      if (typo !== 'keyboard') expect(isOneEdit('keyboard', typo), typo).toBe(true); // a swap or replace may give the word back
    }
  });
});

describe('zipfSampler (bench/zipf.ts)', () => {
  it('draws rank k with probability proportional to 1/(k+1)^s', () => {
    const n = 1_000;
    const sampler = zipfSampler(n, 1, seededRandom(5));
    const draws = 200_000;
    const counts = new Float64Array(n);
    for (let i = 0; i < draws; i++) counts[sampler.next()]!++;
    const harmonic = Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((sum, value) => sum + value, 0);
    expect(sampler.probability(0)).toBeCloseTo(1 / harmonic, 10);
    for (const rank of [0, 1, 2, 9, 99]) {
      const expected = draws * sampler.probability(rank);
      // Within 5 standard deviations of a binomial count.
      expect(Math.abs(counts[rank]! - expected), `rank ${rank}`).toBeLessThan(5 * Math.sqrt(expected));
    }
    expect(counts[0]! / counts[1]!).toBeGreaterThan(1.85);
    expect(counts[0]! / counts[1]!).toBeLessThan(2.15);
    // The tail: ranks 500-999 hold about ln(2)/H(1000) of the draws.
    const tail = counts.slice(500).reduce((sum, value) => sum + value, 0) / draws;
    expect(tail).toBeCloseTo(Math.log(2) / harmonic, 2);
  });

  it('is uniform with s=0 and deterministic for a seed', () => {
    const a = zipfSampler(10, 0, seededRandom(9));
    const b = zipfSampler(10, 0, seededRandom(9));
    const drawn = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(drawn);
    expect(a.probability(3)).toBeCloseTo(0.1, 10);
  });
});

describe('URL sources (bench/url-source.ts)', () => {
  it('distinct: every cursor goes through the list once in order, then says it started again', () => {
    const source = distinctUrls(['/a', '/b', '/c']);
    const one = source.cursor();
    const two = source.cursor();
    expect([one.next(), one.next(), one.next()]).toEqual(['/a', '/b', '/c']);
    expect(one.wraps).toBe(0);
    expect(two.next()).toBe('/a'); // cursors are independent
    expect(one.next()).toBe('/a');
    expect(one.wraps).toBe(1);
    expect(one.taken).toBe(4);
  });

  it('Zipf: the same draws for every cursor, the first URLs the most often', () => {
    const urls = Array.from({ length: 100 }, (_, i) => `/q${i}`);
    const source = zipfUrls(urls, 1, 4);
    const a = source.cursor();
    const b = source.cursor();
    const drawn = Array.from({ length: 2_000 }, () => a.next());
    expect(Array.from({ length: 2_000 }, () => b.next())).toEqual(drawn);
    const first = drawn.filter((url) => url === '/q0').length;
    const last = drawn.filter((url) => url === '/q99').length;
    expect(first).toBeGreaterThan(5 * Math.max(1, last));
  });
});

describe('long-tail scenarios (bench/long-tail.ts)', () => {
  it('the Zipf mix draws from the last zipfQueries queries and favours those search misses reach last, so its warm-up does not cache theirs', () => {
    const letters = (n: number) => [...n.toString(26)].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 26))).join('');
    const words = Array.from({ length: 400 }, (_, i) => ({ word: `word${letters(i)}`, ndoc: 1 + (i % 50) }));
    const vocabulary = { search: { words, phrases: [] }, icons: [], list: { total: 0, categories: [], tags: [], styles: [], colors: [], licenses: [] } };
    const settings = { searchQueries: 300, zipfQueries: 200, singleIcons: 0, listUrls: 0, zipfS: 1, seed: 3 };
    const { scenarios } = longTailScenarios(vocabulary, settings, (id) => id.startsWith('search'));
    const sourceOf = (id: string) => {
      const urls = scenarios.find((scenario) => scenario.id === id)?.urls;
      if (!urls) throw new Error(`no ${id} scenario`);
      return urls.cursor();
    };
    const misses = sourceOf('search-miss');
    const zipf = sourceOf('search-zipf');
    const missOrder = Array.from({ length: 300 }, () => misses.next());
    const drawn = Array.from({ length: 3_000 }, () => zipf.next());
    expect(new Set(drawn).size).toBeGreaterThan(1);
    const neverDrawn = new Set(missOrder.slice(0, 100));
    expect(drawn.filter((url) => neverDrawn.has(url))).toEqual([]);
    const reachedFirst = new Set(missOrder.slice(100, 200));
    const reachedLast = new Set(missOrder.slice(-100));
    const fromFirst = drawn.filter((url) => reachedFirst.has(url)).length;
    const fromLast = drawn.filter((url) => reachedLast.has(url)).length;
    expect(fromLast).toBeGreaterThan(5 * fromFirst);
  });

  it('the Iconify API is sent the same searches and icons, in the same order, in its own URL form', () => {
    const words = Array.from({ length: 200 }, (_, i) => ({ word: `term${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`, ndoc: 1 + (i % 9) }));
    const icons = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, slug: `my-set-glyph-${i + 1}`, prefix: 'my-set', name: `glyph-${i + 1}` }));
    const vocabulary = { search: { words, phrases: [] }, icons, list: { total: 0, categories: [], tags: [], styles: [], colors: [], licenses: [] } };
    const settings = { searchQueries: 150, zipfQueries: 100, singleIcons: 300, listUrls: 0, zipfS: 1, seed: 5 };
    const { scenarios } = longTailScenarios(vocabulary, settings, (id) => id !== 'list-miss' && id !== 'svg-miss');
    const pairs = (id: string, count: number) => {
      const scenario = scenarios.find((candidate) => candidate.id === id)!;
      const ours = scenario.urls!.cursor();
      const theirs = scenario.iconify!.urls.cursor();
      return Array.from({ length: count }, () => [ours.next(), theirs.next()] as const);
    };
    const param = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name);
    for (const id of ['search-miss', 'search-zipf']) {
      for (const [ours, theirs] of pairs(id, 150)) {
        expect(param(theirs, 'query')).toBe(param(ours, 'q'));
        expect(param(theirs, 'limit')).toBe('32');
      }
    }
    const byRef = new Map<string, (typeof icons)[number]>(icons.flatMap((icon) => [[`/icons/${icon.slug}`, icon], [`/icons/${icon.id}`, icon]]));
    const single = pairs('single-miss', 300);
    for (const [ours, theirs] of single) expect(theirs).toBe(`/my-set.json?icons=glyph-${byRef.get(ours)!.id}`);
    expect(new Set(single.map(([, theirs]) => theirs)).size).toBe(300);
  });
});

describe('single-icon and list URLs (bench/url-lists.ts)', () => {
  it('single: each icon once, half by slug and half by id, the same for a seed', () => {
    const icons = Array.from({ length: 1_000 }, (_, i) => ({ id: i + 1, slug: `set-icon-${i + 1}`, prefix: 'set', name: `icon-${i + 1}` }));
    const singleIconUrls = (count: number, seed: number) => singleIconPicks(icons, count, seed).map(singleIconPath);
    const urls = singleIconUrls(600, 2);
    expect(urls).toEqual(singleIconUrls(600, 2));
    expect(urls).toHaveLength(600);
    const ids = urls.map((url) => Number(/(\d+)$/.exec(url)![1]));
    expect(new Set(ids).size).toBe(600);
    expect(urls.filter((url) => /^\/icons\/\d+$/.test(url))).toHaveLength(300);
    expect(urls.filter((url) => url.startsWith('/icons/set-icon-'))).toHaveLength(300);
  });

  it('SVG files: every icon file once, a fifth coloured and a fifth sized, the same for a seed', () => {
    const icons = Array.from({ length: 2_000 }, (_, i) => ({ id: i + 1, slug: `set-icon-${i + 1}`, prefix: 'set', name: `icon-${i + 1}` }));
    const urls = svgFileUrls(icons, 1_500, 5);
    expect(urls).toEqual(svgFileUrls(icons, 1_500, 5));
    expect(new Set(urls.map((url) => url.split('?')[0])).size).toBe(1_500);
    expect(urls.every((url) => /^\/svg\/set\/icon-\d+\.svg(\?|$)/.test(url))).toBe(true);
    const share = (pattern: RegExp) => urls.filter((url) => pattern.test(url)).length / urls.length;
    expect(share(/[?&]color=/)).toBeGreaterThan(0.15);
    expect(share(/[?&]color=/)).toBeLessThan(0.25);
    expect(share(/[?&]size=(16|32|48|64)(&|$)/)).toBeGreaterThan(0.15);
    expect(share(/[?&]size=/)).toBeLessThan(0.25);
  });

  it('lists: distinct combinations of the real filter values, no page past the last', () => {
    const list: ListVocabulary = {
      total: 5_000,
      categories: [
        { value: 'arrows', count: 250 },
        { value: 'weather', count: 30 },
        { value: 'empty', count: 0 },
      ],
      tags: [{ value: 'home', count: 120 }],
      styles: [{ value: 'outline', count: 3_000 }],
      colors: [{ value: 'red', count: 40 }],
      licenses: [
        { value: 'free', count: 4_900 },
        { value: 'premium', count: 100 },
      ],
    };
    const urls = listUrls(list, 2_000, 3);
    expect(urls).toEqual(listUrls(list, 2_000, 3));
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.length).toBeGreaterThan(500);
    const counts = new Map<string, number>([...list.categories, ...list.tags, ...list.styles, ...list.colors, ...list.licenses].map(({ value, count }) => [value, count]));
    for (const url of urls) {
      const params = new URL(url, 'http://x').searchParams;
      const filters = ['category', 'tag', 'style', 'color', 'license'].filter((name) => params.has(name));
      for (const name of filters) expect(counts.get(params.get(name)!), url).toBeGreaterThan(0);
      const perPage = Number(params.get('per_page') ?? 24);
      const selected = Math.min(list.total, ...filters.map((name) => counts.get(params.get(name)!)!));
      expect(Number(params.get('page') ?? 1), url).toBeLessThanOrEqual(Math.max(1, Math.ceil(selected / perPage)));
      expect(params.get('sort') ?? 'newest').not.toBe('popular'); // the default is left out
    }
    expect(urls.filter((url) => url.includes('include_svg=1')).length).toBeGreaterThan(urls.length * 0.05);
  });

  it('namePhrases: adjacent word pairs of names, counted once per name', () => {
    expect(namePhrases(['Arrow Left Bold', 'Arrow Left', 'arrow-left arrow-left'])).toEqual([
      { text: 'arrow left', count: 3 },
      { text: 'left arrow', count: 1 },
      { text: 'left bold', count: 1 },
    ]);
  });
});

describe('X-Cache counting (bench/cache-header.ts)', () => {
  it('counts HIT and STALE as served from the cache, MISS as computed, and ignores responses without the header', () => {
    const counts = emptyCacheCounts();
    for (const value of ['HIT', 'hit', 'MISS', 'STALE', undefined, ['HIT', 'MISS'], 'BYPASS']) countCacheHeader(counts, value);
    expect(counts).toEqual({ hit: 3, miss: 1, stale: 1, none: 1, other: 1 });
    expect(hitRate(counts)).toBeCloseTo(4 / 6, 10);
    expect(hitRate(emptyCacheCounts())).toBeNaN();
    const missesOnly = emptyCacheCounts();
    countCacheHeader(missesOnly, 'MISS');
    expect(hitRate(missesOnly)).toBe(0);
  });

  it('finds the header whatever the case it was sent in', () => {
    expect(headerValue({ 'X-Cache': 'HIT', 'Content-Type': 'x' }, 'x-cache')).toBe('HIT');
    expect(headerValue({ 'content-type': 'x' }, 'x-cache')).toBeUndefined();
  });
});

describe('CPU profile buckets (bench/profile-summary.ts)', () => {
  it('puts a function in its npm package, the project folder of its source, Node, or V8', () => {
    expect(packageOf('file:///app/node_modules/@prisma/client/runtime/client.js')).toBe('@prisma/client');
    expect(packageOf('file:///app/node_modules/pg/lib/client.js')).toBe('pg');
    expect(bucketOf('query', 'file:///app/node_modules/pg-protocol/dist/serializer.js', undefined)).toBe('pg-protocol');
    expect(bucketOf('handle', 'file:///app/dist/gateway.mjs', '../gateway/plugins/rest-routes/index.ts')).toBe('project: gateway/');
    expect(bucketOf('search', 'file:///app/dist/gateway.mjs', '../resolvers/catalogue/search/run.ts')).toBe('project: resolvers/');
    expect(bucketOf('x', 'file:///app/dist/gateway.mjs', '../node_modules/graphql/execution/execute.js')).toBe('graphql');
    expect(bucketOf('writeGeneric', 'node:internal/stream_base_commons', undefined)).toBe('Node internals (http, net, streams...)');
    expect(bucketOf('(garbage collector)', '', undefined)).toBe('garbage collection');
    expect(bucketOf('(idle)', '', undefined)).toBeUndefined();
  });
});
