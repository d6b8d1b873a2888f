// The distinct-URL scenarios' request lists, built from the catalogue with a seeded random
// source: single icons (each once, half by slug and half by id) and list pages (distinct
// combinations of the real filters, sorts, page sizes and pages). Pure: the same catalogue
// and seed give the same lists.
import { type Random, seededRandom, shuffled } from './random.ts';
import { zipfSampler } from './zipf.ts';

export interface IconRef {
  id: number;
  slug: string;
  /** Its set's prefix and its name in the set: the file addresses' parts. */
  prefix: string;
  name: string;
}

/** A filter value and how many published icons it selects. */
export interface Counted {
  value: string;
  count: number;
}

export interface ListVocabulary {
  /** Published icons in all. */
  total: number;
  categories: readonly Counted[];
  tags: readonly Counted[];
  styles: readonly Counted[];
  colors: readonly Counted[];
  /** `free` and `premium`. */
  licenses: readonly Counted[];
}

/** `count` of the icons, each once, in a shuffled order: the single-icon scenario's, in the order asked for. */
export function singleIconPicks(icons: readonly IconRef[], count: number, seed: number): IconRef[] {
  return shuffled(icons, seededRandom(seed)).slice(0, count);
}

/** The single-icon scenario's `index`th request: by slug and by id alternately. */
export const singleIconPath = (icon: IconRef, index: number) => (index % 2 === 0 ? `/icons/${encodeURIComponent(icon.slug)}` : `/icons/${icon.id}`);

/** Colours an <img> page asks of a file; most ask for none (the set's own colour). */
const FILE_COLORS = ['red', '#1e88e5', 'green', 'black'] as const;

/**
 * `/svg/<prefix>/<name>.svg` for each icon once, in a shuffled order; one in five with a colour
 * and one in five with a size, as pages that tint and size their icons ask.
 */
export function svgFileUrls(icons: readonly IconRef[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return shuffled(icons, random)
    .slice(0, count)
    .map((icon) => {
      const query = new URLSearchParams();
      if (random.next() < 0.2) query.set('color', FILE_COLORS[Math.floor(random.next() * FILE_COLORS.length)]!);
      if (random.next() < 0.2) query.set('size', String(16 * (1 + Math.floor(random.next() * 4))));
      const search = query.size > 0 ? `?${query}` : '';
      return `/svg/${encodeURIComponent(icon.prefix)}/${encodeURIComponent(icon.name)}.svg${search}`;
    });
}

const SORTS = ['popular', 'newest', 'downloads', 'az'] as const;
/** Weights of the sorts and page sizes: most clients keep the defaults (popular, 24). */
const SORT_WEIGHTS = [0.45, 0.25, 0.15, 0.15];
const PAGE_SIZES = [24, 48, 100, 12] as const;
const PAGE_SIZE_WEIGHTS = [0.6, 0.2, 0.1, 0.1];
/** Page 1 most, then fewer and fewer: 1 (50 %), 2 (20 %), 3 (10 %), 4-10 (the rest). */
function pageWish(random: Random): number {
  const u = random.next();
  if (u < 0.5) return 1;
  if (u < 0.7) return 2;
  if (u < 0.8) return 3;
  return 4 + random.below(7);
}

function weighted<T>(items: readonly T[], weights: readonly number[], random: Random): T {
  let u = random.next() * weights.reduce((sum, weight) => sum + weight, 0);
  for (const [index, item] of items.entries()) {
    u -= weights[index]!;
    if (u < 0) return item;
  }
  return items[items.length - 1]!;
}

type FilterName = 'category' | 'tag' | 'style' | 'color' | 'license';

/** Which filters a request sets: none (10 %), one (75 %), or two (15 %). */
const FILTER_SETS: readonly (readonly FilterName[])[] = [[], ['category'], ['tag'], ['style'], ['color'], ['license'], ['category', 'color'], ['tag', 'license'], ['style', 'color']];
const FILTER_SET_WEIGHTS = [0.1, 0.3, 0.25, 0.08, 0.08, 0.04, 0.06, 0.05, 0.04];

/**
 * Up to `count` distinct `/icons?...` URLs. A page is never past the last of its filter (known
 * for one filter; two filters stay on pages 1-2); 10 % ask for the markup (`include_svg=1`).
 */
export function listUrls(vocabulary: ListVocabulary, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const nonEmpty = (list: readonly Counted[]) => list.filter(({ count: n }) => n > 0);
  const values: Record<FilterName, readonly Counted[]> = {
    category: nonEmpty(vocabulary.categories),
    tag: nonEmpty(vocabulary.tags),
    style: nonEmpty(vocabulary.styles),
    color: nonEmpty(vocabulary.colors),
    license: nonEmpty(vocabulary.licenses),
  };
  const usable = FILTER_SETS.map((set) => set.every((name) => values[name].length > 0));
  const urls = new Set<string>();
  const maxAttempts = count * 20;
  for (let attempt = 0; attempt < maxAttempts && urls.size < count; attempt++) {
    const filters = weighted(FILTER_SETS, FILTER_SET_WEIGHTS.map((weight, index) => (usable[index] ? weight : 0)), random);
    const params = new URLSearchParams();
    let selected = vocabulary.total;
    for (const name of filters) {
      const choice = random.pick(values[name]);
      params.set(name, choice.value);
      selected = Math.min(selected, choice.count);
    }
    const sort = weighted(SORTS, SORT_WEIGHTS, random);
    if (sort !== 'popular') params.set('sort', sort);
    const perPage = weighted(PAGE_SIZES, PAGE_SIZE_WEIGHTS, random);
    if (perPage !== 24) params.set('per_page', String(perPage));
    const lastPage = filters.length > 1 ? Math.min(2, Math.max(1, Math.ceil(selected / perPage))) : Math.max(1, Math.ceil(selected / perPage));
    const page = Math.min(pageWish(random), lastPage);
    if (page > 1) params.set('page', String(page));
    if (random.next() < 0.1) params.set('include_svg', '1');
    const query = params.toString();
    urls.add(query ? `/icons?${query}` : '/icons');
  }
  return [...urls];
}

/** `/search?q=<query>` for each query. */
export const searchUrls = (queries: readonly string[]) => queries.map((query) => `/search?q=${encodeURIComponent(query)}`);

/**
 * Iconify's protocol as components ask it (issue 47): `count` icon data requests, each of 1 to 20
 * icons of one set, the icons drawn by Zipf over the whole catalogue (a shuffled order is the
 * popularity ranking): the first icon's set is the request's, its other icons drawn by Zipf over
 * that set's icons, in the same ranking. Paths relative to the protocol's root
 * (`/{prefix}.json?icons=...`): the gateway's are under its prefix, the Iconify API's at its root.
 */
export function iconifyDataPaths(icons: readonly Pick<IconRef, 'prefix' | 'name'>[], count: number, seed: number, s: number): string[] {
  const random = seededRandom(seed);
  const ranked = shuffled(icons, random);
  const overall = zipfSampler(ranked.length, s, random);
  const bySet = new Map<string, Pick<IconRef, 'prefix' | 'name'>[]>();
  for (const icon of ranked) {
    const list = bySet.get(icon.prefix);
    if (list) list.push(icon);
    else bySet.set(icon.prefix, [icon]);
  }
  const samplers = new Map<string, ReturnType<typeof zipfSampler>>();
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const first = ranked[overall.next()]!;
    const ofSet = bySet.get(first.prefix)!;
    let sampler = samplers.get(first.prefix);
    if (!sampler) {
      sampler = zipfSampler(ofSet.length, s, random);
      samplers.set(first.prefix, sampler);
    }
    const wanted = Math.min(ofSet.length, 1 + random.below(20));
    const names = new Set([first.name]);
    for (let tries = 0; names.size < wanted && tries < wanted * 20; tries++) names.add(ofSet[sampler.next()]!.name);
    paths.push(`/${encodeURIComponent(first.prefix)}.json?icons=${[...names].map(encodeURIComponent).join(',')}`);
  }
  return paths;
}

/** SVG files of the protocol, icons drawn by Zipf over the whole catalogue (`/{prefix}/{name}.svg`, relative to the protocol's root). */
export function iconifySvgPaths(icons: readonly IconRef[], count: number, seed: number, s: number): string[] {
  const random = seededRandom(seed);
  const ranked = shuffled(icons, random);
  const sampler = zipfSampler(ranked.length, s, random);
  return Array.from({ length: count }, () => {
    const icon = ranked[sampler.next()]!;
    return `/${encodeURIComponent(icon.prefix)}/${encodeURIComponent(icon.name)}.svg`;
  });
}
