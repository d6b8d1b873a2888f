// The long-tail scenarios (issue 12): requests the response cache has never seen. Search misses
// (distinct queries), single-icon misses (distinct icons, by slug and by id), list misses
// (distinct filter/sort/page combinations) and a Zipf mix of the same searches, their URL lists
// generated from the catalogue's vocabulary with fixed seeds.
import { generateQueries, kindCounts, QUERY_MIX, queriesInMix, type QueryKind } from './query-mix.ts';
import type { Scenario } from './report.ts';
import { distinctUrls, zipfUrls } from './url-source.ts';
import { iconifyIconPath, iconifySearchPath } from './iconify-api.ts';
import { iconifyDataPaths, iconifySvgPaths, listUrls, searchUrls, singleIconPath, singleIconPicks, svgFileUrls } from './url-lists.ts';
import type { CatalogueVocabulary } from './vocabulary.ts';

export interface LongTailSettings {
  /** Distinct search queries: a number, or at most this many in the documented mix (queriesInMix). */
  searchQueries: number | { atMost: number };
  /** Of those, the last this many are the Zipf mix's list. */
  zipfQueries: number;
  /** Distinct icons of the single-icon scenario (at most the catalogue's free icons). */
  singleIcons: number;
  /** Distinct list URLs. */
  listUrls: number;
  /** Zipf exponent of the search mix. */
  zipfS: number;
  /** Seed of every list (each list adds its own offset). */
  seed: number;
  /**
   * The icons the Iconify API beside the gateway serves, names by prefix (BENCH_ICONIFY_API): the
   * protocol's lists draw only from these (not from the catalogue's own sets, nor from icons its
   * copy of a set lacks), so both servers can answer every request. Undefined: every icon.
   */
  iconifyIcons?: ReadonlyMap<string, ReadonlySet<string>> | undefined;
}

export const LONG_TAIL_IDS = ['search-miss', 'single-miss', 'list-miss', 'search-zipf', 'svg-miss', 'iconify-data', 'iconify-single', 'iconify-svg', 'iconify-data-kept', 'iconify-svg-kept', 'iconify-search'] as const;

/** The gateway's Iconify protocol prefix (.meshrc.yaml, iconify-protocol's path). */
const ICONIFY_PREFIX = '/iconify';
/** The lists' seed unless BENCH_SEED says otherwise (each list adds its own offset to it). */
export const DEFAULT_SEED = 12;
/** The iconify-data list's offset from the seed (bench/iconify-cache-ceiling.ts replays that list). */
export const ICONIFY_DATA_SEED_OFFSET = 5;
/** How many requests the protocol's Zipf lists hold. */
const PROTOCOL_ZIPF_REQUESTS = 200_000;
/**
 * How many distinct requests the protocol's kept scenarios cycle through: few enough that the
 * gateway keeps every answer after the warm-up's first pass (their icons fit its data cache).
 */
const KEPT_REQUESTS = 300;

/** What Chromium and Firefox send for an image. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const percent = (part: number, whole: number) => `${Math.round((100 * part) / Math.max(1, whole))} %`;

export interface LongTail {
  scenarios: Scenario[];
  /** How the lists came out (sizes, the query mix), for the log and the report. */
  notes: string[];
}

export function longTailScenarios(vocabulary: CatalogueVocabulary, settings: LongTailSettings, wanted: (id: string) => boolean): LongTail {
  const scenarios: Scenario[] = [];
  const notes: string[] = [];
  if (wanted('search-miss') || wanted('search-zipf')) {
    const count = typeof settings.searchQueries === 'number' ? settings.searchQueries : Math.min(settings.searchQueries.atMost, queriesInMix(vocabulary.search));
    const queries = generateQueries(vocabulary.search, count, settings.seed);
    const counts = kindCounts(queries);
    const plural: Record<QueryKind, string> = { word: 'words', phrase: 'phrases', prefix: 'prefixes', typo: 'typos' };
    const mix = (Object.keys(QUERY_MIX) as QueryKind[]).map((kind) => `${plural[kind]} ${percent(counts[kind], queries.length)}`).join(', ');
    notes.push(
      `search queries: ${queries.length.toLocaleString('en-US')} distinct (${mix}; aimed at ${(Object.keys(QUERY_MIX) as QueryKind[]).map((kind) => percent(QUERY_MIX[kind], 1)).join('/')}) ` +
        `from ${vocabulary.search.words.length.toLocaleString('en-US')} vocabulary words and ${vocabulary.search.phrases.length.toLocaleString('en-US')} name phrases; ` +
        `e.g. ${queries.slice(0, 8).map(({ text }) => JSON.stringify(text)).join(', ')}`,
    );
    const texts = queries.map(({ text }) => text);
    const urls = searchUrls(texts);
    const iconifyUrls = texts.map(iconifySearchPath);
    if (wanted('search-miss')) {
      scenarios.push({ id: 'search-miss', label: 'search misses', path: urls.at(-1)!, urls: distinctUrls(urls), iconify: { path: iconifyUrls.at(-1)!, urls: distinctUrls(iconifyUrls) } });
    }
    // The Zipf mix ranks the list from its end: search misses send it from the start, and its
    // most frequent queries, cached by the mix's warm-up, came first there (5.9 % and 10.7 %
    // X-Cache hits among search misses measured after it, 2026-11-25).
    const byPopularity = urls.slice(-settings.zipfQueries).reverse();
    const iconifyByPopularity = iconifyUrls.slice(-settings.zipfQueries).reverse();
    if (wanted('search-zipf')) {
      scenarios.push({
        id: 'search-zipf',
        label: `search Zipf mix (s=${settings.zipfS})`,
        path: byPopularity[0]!,
        urls: zipfUrls(byPopularity, settings.zipfS, settings.seed + 3),
        iconify: { path: iconifyByPopularity[0]!, urls: zipfUrls(iconifyByPopularity, settings.zipfS, settings.seed + 3) },
      });
    }
  }
  if (wanted('single-miss')) {
    const icons = singleIconPicks(vocabulary.icons, settings.singleIcons, settings.seed + 1);
    const urls = icons.map(singleIconPath);
    const iconifyUrls = icons.map(iconifyIconPath);
    notes.push(`single icons: ${urls.length.toLocaleString('en-US')} distinct free icons of ${vocabulary.icons.length.toLocaleString('en-US')}, half by slug, half by id`);
    scenarios.push({ id: 'single-miss', label: 'single-icon misses', path: urls.at(-1)!, urls: distinctUrls(urls), iconify: { path: iconifyUrls.at(-1)!, urls: distinctUrls(iconifyUrls) } });
  }
  if (wanted('svg-miss')) {
    const urls = svgFileUrls(vocabulary.icons, settings.singleIcons, settings.seed + 4);
    notes.push(`SVG files: ${urls.length.toLocaleString('en-US')} distinct free icons' files, one in five coloured, one in five sized`);
    // As a browser asks for an <img>: compressed files are what its users get, and what the gateway keeps.
    scenarios.push({ id: 'svg-miss', label: 'SVG file misses', path: urls.at(-1)!, urls: distinctUrls(urls), headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING } });
  }
  // Issue 47: the same work on the same protocol, the gateway's under its prefix, the Iconify API's at its root,
  // from anonymous callers as Iconify's components are.
  const { iconifyIcons } = settings;
  const protocolIcons = iconifyIcons ? vocabulary.icons.filter((icon) => iconifyIcons.get(icon.prefix)?.has(icon.name)) : vocabulary.icons;
  const protocol = (id: string, label: string, paths: string[], source: (urls: readonly string[]) => ReturnType<typeof distinctUrls>) => {
    const ours = paths.map((path) => `${ICONIFY_PREFIX}${path}`);
    scenarios.push({ id, label, path: ours[0]!, urls: source(ours), anonymous: true, iconify: { path: paths[0]!, urls: source(paths) } });
  };
  // A Zipf list is replayed in its order: its repeats are the distribution's.
  const inOrder = (urls: readonly string[]) => ({ ...distinctUrls(urls), describe: `${urls.length.toLocaleString('en-US')} requests drawn by Zipf (s=${settings.zipfS}), in order` });
  if (wanted('iconify-data')) {
    notes.push(`Iconify icon data: ${PROTOCOL_ZIPF_REQUESTS.toLocaleString('en-US')} requests of 1 to 20 icons of one set, icons by Zipf (s=${settings.zipfS}) over ${protocolIcons.length.toLocaleString('en-US')} free icons${iconifyIcons ? ' that the Iconify API also serves' : ''}`);
    protocol('iconify-data', 'Iconify icon data, 1-20 icons, Zipf', iconifyDataPaths(protocolIcons, PROTOCOL_ZIPF_REQUESTS, settings.seed + ICONIFY_DATA_SEED_OFFSET, settings.zipfS), inOrder);
  }
  if (wanted('iconify-single')) {
    const icons = singleIconPicks(protocolIcons, settings.singleIcons, settings.seed + 6);
    protocol('iconify-single', 'Iconify single-icon data, each distinct', icons.map((icon) => `/${encodeURIComponent(icon.prefix)}.json?icons=${encodeURIComponent(icon.name)}`), distinctUrls);
  }
  if (wanted('iconify-svg')) {
    protocol('iconify-svg', 'Iconify SVG files, Zipf', iconifySvgPaths(protocolIcons, PROTOCOL_ZIPF_REQUESTS, settings.seed + 7, settings.zipfS), inOrder);
  }
  // The same protocol with every answer kept (the gateway's ceiling): a short list cycled, as
  // a site's pages ask for the same icons again.
  const cycled = (urls: readonly string[]) => ({ ...distinctUrls(urls), describe: `${urls.length.toLocaleString('en-US')} distinct URLs over and over: every answer kept after the warm-up's first pass` });
  const firstDistinct = (paths: readonly string[]) => [...new Set(paths)].slice(0, KEPT_REQUESTS);
  if (wanted('iconify-data-kept')) {
    protocol('iconify-data-kept', 'Iconify icon data, 1-20 icons, all kept', firstDistinct(iconifyDataPaths(protocolIcons, KEPT_REQUESTS * 2, settings.seed + 9, settings.zipfS)), cycled);
  }
  if (wanted('iconify-svg-kept')) {
    protocol('iconify-svg-kept', 'Iconify SVG files, all kept', firstDistinct(iconifySvgPaths(protocolIcons, KEPT_REQUESTS * 2, settings.seed + 10, settings.zipfS)), cycled);
  }
  if (wanted('iconify-search')) {
    const count = typeof settings.searchQueries === 'number' ? settings.searchQueries : Math.min(settings.searchQueries.atMost, queriesInMix(vocabulary.search));
    const texts = generateQueries(vocabulary.search, count, settings.seed + 8).map(({ text }) => text);
    protocol('iconify-search', 'Iconify search, distinct human queries', texts.map(iconifySearchPath), distinctUrls);
  }
  if (wanted('list-miss')) {
    const urls = listUrls(vocabulary.list, settings.listUrls, settings.seed + 2);
    const { categories, tags, styles, colors } = vocabulary.list;
    notes.push(
      `list pages: ${urls.length.toLocaleString('en-US')} distinct combinations of ${categories.length} categories, ${tags.length} tags, ${styles.length} styles, ${colors.length} colours, 2 licenses, 4 sorts, 4 page sizes, pages 1-10`,
    );
    scenarios.push({ id: 'list-miss', label: 'list-page misses', path: urls.at(-1)!, urls: distinctUrls(urls) });
  }
  // The order of LONG_TAIL_IDS, whatever the order built in.
  scenarios.sort((a, b) => LONG_TAIL_IDS.indexOf(a.id as (typeof LONG_TAIL_IDS)[number]) - LONG_TAIL_IDS.indexOf(b.id as (typeof LONG_TAIL_IDS)[number]));
  return { scenarios, notes };
}
