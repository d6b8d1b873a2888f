// Where a distinct-URL scenario's requests come from: every request, across all connections,
// takes the next URL of one shared sequence. Each server gets its own cursor, so every server
// is sent the same sequence, and a cursor lives for the whole run (warm-up pass and rounds):
// a server never sees a URL twice until its list is used up.
import { seededRandom } from './random.ts';
import { zipfSampler } from './zipf.ts';

export interface UrlCursor {
  next(): string;
  /** URLs handed out so far. */
  readonly taken: number;
  /** Times the list was used up and started again (distinct lists only). */
  readonly wraps: number;
}

export interface UrlSource {
  /** How the URLs are drawn, for the report ("12,000 distinct URLs, each once"). */
  describe: string;
  /** Distinct URLs in the list. */
  size: number;
  /** A fresh cursor at the start of the sequence. */
  cursor(): UrlCursor;
}

/** Each URL once, in the list's order (from the start again once used up: the report says so). */
export function distinctUrls(urls: readonly string[]): UrlSource {
  if (urls.length === 0) throw new Error('a distinct-URL scenario needs at least one URL');
  return {
    describe: `${urls.length.toLocaleString('en-US')} distinct URLs, each once`,
    size: urls.length,
    cursor: () => {
      let taken = 0;
      return {
        next: () => urls[taken++ % urls.length]!,
        get taken() {
          return taken;
        },
        get wraps() {
          return Math.floor(Math.max(0, taken - 1) / urls.length);
        },
      };
    },
  };
}

/** URLs drawn with Zipf's law over the list's order (the first the most often), the same draws for every cursor. */
export function zipfUrls(urls: readonly string[], s: number, seed: number): UrlSource {
  if (urls.length === 0) throw new Error('a Zipf scenario needs at least one URL');
  return {
    describe: `Zipf s=${s} over ${urls.length.toLocaleString('en-US')} URLs`,
    size: urls.length,
    cursor: () => {
      const sampler = zipfSampler(urls.length, s, seededRandom(seed));
      let taken = 0;
      return {
        next: () => {
          taken++;
          return urls[sampler.next()]!;
        },
        get taken() {
          return taken;
        },
        wraps: 0,
      };
    },
  };
}
