// The Iconify API (github.com/iconify/api, the server issue 12's goals are set against), run
// side by side with the gateway when BENCH_ICONIFY_API names a built checkout of it: the bench
// starts it on a free port, and the long-tail scenarios it has an equivalent of send it the same
// sequence of requests in its own URL form. It serves the whole @iconify/json package from
// memory; the gateway's full catalogue is imported from the same package (`import --all`).
//
// Equivalents: a search is `/search?query=<q>&limit=32` (32 is its smallest page; the gateway's
// is 24, so the Iconify API is never asked for less than the gateway sends); a single icon is
// `/<prefix>.json?icons=<name>`, its icon data (the body the gateway's single icon carries as
// `svg`). List pages have no equivalent there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startServer, type ServerChild } from './children.ts';
import type { IconRef } from './url-lists.ts';

/** The Iconify API's smallest search page. */
const SEARCH_LIMIT = 32;
/** How long the Iconify API may take to load every icon set (about a minute here). */
const START_TIMEOUT_MS = 5 * 60_000;

export const iconifySearchPath = (query: string) => `/search?query=${encodeURIComponent(query)}&limit=${SEARCH_LIMIT}`;

export const iconifyIconPath = (icon: Pick<IconRef, 'prefix' | 'name'>) => `/${encodeURIComponent(icon.prefix)}.json?icons=${encodeURIComponent(icon.name)}`;

/**
 * The icons the Iconify API of `dir` serves, names by prefix: the icons and aliases of the
 * IconifyJSON files in its `icons/` (the bench runs it with ICONIFY_SOURCE=none); undefined when
 * it has none there (it then serves its package's).
 */
export function iconifyApiIcons(dir: string): Map<string, Set<string>> | undefined {
  const icons = join(dir, 'icons');
  if (!existsSync(icons)) return undefined;
  const served = new Map<string, Set<string>>();
  for (const file of readdirSync(icons).filter((name) => name.endsWith('.json'))) {
    const set = JSON.parse(readFileSync(join(icons, file), 'utf8')) as { prefix?: string; icons?: object; aliases?: object };
    if (set.prefix) served.set(set.prefix, new Set([...Object.keys(set.icons ?? {}), ...Object.keys(set.aliases ?? {})]));
  }
  return served.size ? served : undefined;
}

/** Starts the Iconify API of the built checkout `dir` (`npm install && npm run build` there). */
export async function startIconifyApi(dir: string, logFile: string): Promise<ServerChild> {
  const entry = join(dir, 'lib', 'index.js');
  if (!existsSync(entry)) throw new Error(`BENCH_ICONIFY_API: ${entry} does not exist (run \`npm install && npm run build\` in ${dir})`);
  const port = await freePort();
  return startServer({
    name: 'Iconify API',
    script: entry,
    nodeArgs: ['--expose-gc'], // as its own `npm start` runs it
    plainNode: true,
    cwd: dir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    logFile,
    timeoutMs: START_TIMEOUT_MS,
    ready: { line: /API startup process complete/, url: `http://127.0.0.1:${port}` },
  });
}
