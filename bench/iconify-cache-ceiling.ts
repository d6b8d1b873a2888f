// How much of the iconify-data scenario's traffic (bench/url-lists.ts: 1 to 20 icons of one set,
// icons by Zipf over the whole catalogue) any cache of icon data could answer, and what it would
// have to hold: the limit no cache size or eviction policy gets past, computed from the
// IconifyJSON files themselves, without a server.
//
//   npx tsx bench/iconify-cache-ceiling.ts <folder of IconifyJSON files> [requests...]
//
// - A cache of every icon seen before (unbounded, never evicting) answers a request whole only
//   when all its icons came up in earlier requests: its hit rate after n requests.
// - Holding whole sets instead (as the Iconify API does) answers every request of a held set;
//   requests are spread over sets by their icon counts, so the sets with the smallest icons give
//   the most requests per byte: the share of requests a budget of memory covers that way.
// Bytes are counted as iconify-protocol's data cache counts them (body, name, key and 96 bytes).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { DEFAULT_SEED, ICONIFY_DATA_SEED_OFFSET } from './long-tail.ts';
import { iconifyDataPaths, type IconRef } from './url-lists.ts';

/** The iconify-data list of a bench run with the default seed. */
const SEED = DEFAULT_SEED + ICONIFY_DATA_SEED_OFFSET;
const ZIPF_S = 1;
const ENTRY_OVERHEAD = 96;
const BUDGETS_MB = [100, 150, 200, 250, 300, 400, 500];

const [dir, ...counts] = process.argv.slice(2);
if (!dir) throw new Error('usage: npx tsx bench/iconify-cache-ceiling.ts <folder of IconifyJSON files> [requests...]');
const requestCounts = counts.length ? counts.map(Number) : [20_000, 75_000, 150_000];

const icons: Pick<IconRef, 'prefix' | 'name'>[] = [];
const bytesOf = new Map<string, number>();
const sets = new Map<string, { icons: number; bytes: number }>();
for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
  const set = JSON.parse(readFileSync(join(dir, file), 'utf8')) as IconifyJSON;
  const totals = { icons: 0, bytes: 0 };
  for (const [name, icon] of Object.entries(set.icons)) {
    if (icon.hidden) continue;
    const key = `${set.prefix}\n${name}`;
    const bytes = icon.body.length + name.length + key.length + ENTRY_OVERHEAD;
    icons.push({ prefix: set.prefix, name });
    bytesOf.set(key, bytes);
    totals.icons++;
    totals.bytes += bytes;
  }
  if (totals.icons) sets.set(set.prefix, totals);
}
const allBytes = [...sets.values()].reduce((sum, set) => sum + set.bytes, 0);
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
console.log(`${icons.length.toLocaleString('en-US')} icons in ${sets.size} sets, ${mb(allBytes)} MB as the data cache counts them\n`);

console.log('| requests | whole in a cache of every icon seen before | distinct icons seen | their MB |');
console.log('| ---: | ---: | ---: | ---: |');
const paths = iconifyDataPaths(icons, Math.max(...requestCounts), SEED, ZIPF_S);
for (const count of requestCounts) {
  const seen = new Set<string>();
  let whole = 0;
  let bytes = 0;
  for (const path of paths.slice(0, count)) {
    const match = /^\/([^.]+)\.json\?icons=(.*)$/.exec(path)!;
    const prefix = decodeURIComponent(match[1]!);
    const keys = match[2]!.split(',').map((name) => `${prefix}\n${decodeURIComponent(name)}`);
    if (keys.every((key) => seen.has(key))) whole++;
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      bytes += bytesOf.get(key) ?? 0;
    }
  }
  console.log(`| ${count.toLocaleString('en-US')} | ${((100 * whole) / count).toFixed(1)} % | ${seen.size.toLocaleString('en-US')} | ${mb(bytes)} |`);
}

console.log('\n| memory for whole sets, MB | share of requests whose set is held |');
console.log('| ---: | ---: |');
const bySmallestIcons = [...sets.values()].sort((a, b) => a.bytes / a.icons - b.bytes / b.icons);
for (const budget of BUDGETS_MB) {
  let held = 0;
  let used = 0;
  for (const set of bySmallestIcons) {
    if (used + set.bytes > budget * 1e6) break;
    used += set.bytes;
    held += set.icons;
  }
  console.log(`| ${budget} | ${((100 * held) / icons.length).toFixed(1)} % |`);
}
