// The preview options of icon-files (validated by its zod schema: a mistake names the key) and
// the watermark they draw into a preview's SVG before it is rasterized.
import { describe, expect, it } from 'vitest';
import { iconFilesOptions } from '../../gateway/plugins/icon-files/options.ts';
import { watermarked } from '../../gateway/plugins/icon-files/watermark.ts';

const issuesOf = (preview: unknown) => {
  const parsed = iconFilesOptions.safeParse({ preview });
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('icon-files preview options', () => {
  it('default to /preview, 16 to 64 px, no watermark', () => {
    expect(iconFilesOptions.parse({}).preview).toEqual({ path: '/preview', minSize: 16, maxSize: 64, cacheMaxBytes: 4 * 1024 * 1024 });
    expect(iconFilesOptions.parse({ preview: { watermark: {} } }).preview.watermark).toEqual({ color: '#808080', opacity: 0.45, icons: 'premium' });
  });

  it('refuse a bound that would make a preview a substitute for the file, and bad watermarks, naming the key', () => {
    expect(issuesOf({ maxSize: 512 })).toEqual([expect.stringMatching(/^preview\.maxSize: /)]);
    expect(issuesOf({ minSize: 48, maxSize: 32 })).toEqual([expect.stringMatching(/^preview: minSize must not exceed maxSize/)]);
    expect(issuesOf({ watermark: { color: 'red"/><script>' } })).toEqual([expect.stringMatching(/^preview\.watermark\.color: must be a hex colour/)]);
    expect(issuesOf({ watermark: { opacity: 0 } })).toEqual([expect.stringMatching(/^preview\.watermark\.opacity: /)]);
    expect(issuesOf({ watermark: { icons: 'free' } })).toEqual([expect.stringMatching(/^preview\.watermark\.icons: /)]);
    expect(issuesOf({ path: '/a/b' })).toEqual([expect.stringMatching(/^preview\.path: must be one path segment/)]);
    expect(issuesOf({ size: 64 })).toHaveLength(1);
  });
});

describe('watermarked', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="12" viewBox="0 0 24 12"><path d="M0 0h24v12H0z"/></svg>';

  it('draws bands across the whole box over the icon, inside the same <svg>', () => {
    const marked = watermarked(svg, { width: 24, height: 12 }, { color: '#ff0000', opacity: 0.5, icons: 'premium' });
    expect(marked.startsWith(svg.slice(0, -'</svg>'.length))).toBe(true);
    expect(marked.endsWith('</svg>')).toBe(true);
    expect(marked.match(/<svg/g)).toHaveLength(1);
    const bands = /<path d="([^"]+)" fill="none" stroke="#ff0000" stroke-opacity="0.5" stroke-width="2"\/><\/svg>$/.exec(marked);
    expect(bands).not.toBeNull();
    // Every band starts on the top edge and runs down-left by the box's height; together they reach past both ends.
    const starts = [...bands![1]!.matchAll(/M([\d.]+) 0l-12 12/g)].map((match) => Number(match[1]));
    expect(starts.length).toBeGreaterThanOrEqual(5);
    expect(starts[0]).toBeLessThan(6);
    expect(starts.at(-1)!).toBeGreaterThan(24);
  });
});
