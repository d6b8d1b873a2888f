// The gateway's Iconify protocol beside the Iconify API itself (@iconify/api, run from its npm
// package on the same sets: the demo catalogue's free sets as IconifyJSON files), for a few
// hundred icons and aliases: the icon data each gives, drawn by @iconify/utils, and the SVG files
// for a grid of customizations. Bodies are compared as the import writes them (its sanitizer
// serializes every element with its end tag); every other difference must be one of the
// catalogue's known ones (docs/iconify-protocol.md, "Differences from the Iconify API's answers"):
// a fractional size or offset the import moved into a whole-number box, a hidden icon (not
// published). The test prints the tally.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type ServerChild } from '../../bench/children.ts';
import { sanitizeSvgBody } from '../../lib/svg/sanitize.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const require = createRequire(import.meta.url);
const SETS = ['mdi', 'tabler', 'logos', 'fluent-emoji-flat'];
const ICONS_PER_SET = 70;
const ALIASES_PER_SET = 20;
/** The customizations compared on SVG files (each a query string). */
const GRID = ['', 'width=48', 'height=2em', 'width=auto', 'width=unset&height=unset', 'rotate=1', 'rotate=90deg', 'rotate=3', 'flip=horizontal', 'flip=vertical', 'flip=horizontal,vertical&rotate=1', 'color=%23ff0000', 'color=red&width=32', 'box=1', 'download=1'];
const SVG_ICONS_PER_SET = 12;

let database: TestDatabase;
let gateway: RunningGateway;
let iconify: ServerChild;
let key: string;
let work: string;
const sources = new Map<string, IconifyJSON>();
const chosen = new Map<string, string[]>();

/** An alias's chain ends at this icon name, or undefined (broken, circular). */
function aliasTarget(set: IconifyJSON, name: string): string | undefined {
  const seen = new Set<string>();
  let current = name;
  while (!set.icons[current]) {
    const parent = set.aliases?.[current]?.parent;
    if (parent === undefined || seen.has(current)) return undefined;
    seen.add(current);
    current = parent;
  }
  return current;
}

beforeAll(async () => {
  delete process.env.REDIS_URL;
  database = await createCatalogueCopy('postgres').catch(() => createCatalogueCopy('pglite'));
  const { prisma } = database.db;
  key = (await createApiKey(prisma, { accountName: 'comparison', hourlyLimit: 1_000_000 })).key;
  work = mkdtempSync(join(tmpdir(), 'iconify-api-'));
  mkdirSync(join(work, 'icons'));
  for (const prefix of SETS) {
    const dir = dirname(require.resolve(`@iconify-json/${prefix}/package.json`));
    const file = join(dir, 'icons.json');
    const set = JSON.parse(readFileSync(file, 'utf8')) as IconifyJSON;
    // The package keeps its characters map beside the icons; an IconifyJSON file holds it within.
    const chars = JSON.parse(readFileSync(join(dir, 'chars.json'), 'utf8')) as Record<string, string>;
    writeFileSync(join(work, 'icons', `${prefix}.json`), JSON.stringify(Object.keys(chars).length ? { ...set, chars } : set));
    sources.set(prefix, set);
    // Every alias of the source whose chain ends at an icon: the importer wrote them into the demo catalogue.
    const aliasNames = Object.keys(set.aliases ?? {}).filter((name) => !set.icons[name] && aliasTarget(set, name) !== undefined);
    const names = Object.keys(set.icons).sort();
    const step = Math.max(1, Math.floor(names.length / ICONS_PER_SET));
    const aliases = aliasNames.sort();
    const aliasStep = Math.max(1, Math.floor(aliases.length / ALIASES_PER_SET));
    chosen.set(prefix, [...names.filter((_, index) => index % step === 0).slice(0, ICONS_PER_SET), ...aliases.filter((_, index) => index % aliasStep === 0).slice(0, ALIASES_PER_SET)]);
  }
  gateway = await startGatewayInProcess(database.db);
  const port = await freePort();
  iconify = await startServer({
    name: 'Iconify API',
    script: join(dirname(require.resolve('@iconify/api/package.json')), 'lib', 'index.js'),
    plainNode: true,
    cwd: work,
    env: { ...process.env, ICONIFY_SOURCE: 'none', HOST: '127.0.0.1', PORT: String(port) },
    logFile: join(work, 'iconify-api.log'),
    timeoutMs: 120_000,
    ready: { line: /API startup process complete/, url: `http://127.0.0.1:${port}` },
  });
}, 300_000);
afterAll(async () => {
  await iconify?.stop();
  await gateway?.close();
  await database?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Why the catalogue's icon differs from its source, or undefined when it should not. */
function knownDifference(set: IconifyJSON, name: string): string | undefined {
  const icon = set.icons[aliasTarget(set, name) ?? name];
  if (!icon) return undefined;
  if (icon.hidden) return 'hidden';
  const width = icon.width ?? set.width ?? 16;
  const height = icon.height ?? set.height ?? 16;
  if (!Number.isInteger(width) || !Number.isInteger(height) || (icon.left ?? set.left ?? 0) !== 0 || (icon.top ?? set.top ?? 0) !== 0) return 'placed';
  return undefined;
}

/**
 * An SVG file with its content written as the catalogue writes bodies (the import's sanitizer
 * serializes every element with its end tag: `<path/>` is `<path></path>` there); the root tag as it is.
 */
function canonical(svg: string): string {
  const parts = /^(<svg[^>]*>)([\s\S]*)<\/svg>$/.exec(svg);
  return parts ? `${parts[1]}${sanitizeSvgBody(parts[2]!)}</svg>` : svg;
}

async function text(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; disposition: string | null }> {
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, body: await response.text(), disposition: response.headers.get('content-disposition') };
}

describe('the gateway beside the Iconify API', () => {
  const same: string[] = [];

  it('gives the same icon data for a few hundred icons and aliases, but for the known differences', async () => {
    const tally: Record<string, number> = { same: 0, 'same once serialized': 0, placed: 0, hidden: 0 };
    const unexplained: string[] = [];
    for (const prefix of SETS) {
      const names = chosen.get(prefix)!;
      const source = sources.get(prefix)!;
      for (let at = 0; at < names.length; at += 20) {
        const batch = names.slice(at, at + 20);
        const path = `/${prefix}.json?icons=${batch.join(',')}`;
        const [ours, theirs] = await Promise.all([text(gateway.url, `/iconify${path}`), text(iconify.url, path)]);
        expect(ours.status).toBe(200);
        expect(theirs.status).toBe(200);
        const oursJson = JSON.parse(ours.body) as IconifyJSON;
        const theirsJson = JSON.parse(theirs.body) as IconifyJSON;
        for (const name of batch) {
          const a = getIconData(oursJson, name);
          const b = getIconData(theirsJson, name);
          const drawnA = a && iconToSVG(a);
          const drawnB = b && iconToSVG(b);
          if (drawnA && drawnB && drawnA.attributes.viewBox === drawnB.attributes.viewBox && drawnA.body === sanitizeSvgBody(drawnB.body)) {
            tally[drawnA.body === drawnB.body ? 'same' : 'same once serialized']!++;
            same.push(`${prefix}:${name}`);
            continue;
          }
          const reason = knownDifference(source, name);
          if (reason) tally[reason]!++;
          else unexplained.push(`${prefix}:${name}: ours ${JSON.stringify(drawnA)}, Iconify's ${JSON.stringify(drawnB)}`);
        }
      }
    }
    console.log(`icon data beside the Iconify API: ${JSON.stringify(tally)}`);
    expect(unexplained).toEqual([]);
    expect(tally.same! + tally['same once serialized']!).toBeGreaterThan(200);
  });

  it('makes the same SVG files for a grid of customizations', async () => {
    const differences: string[] = [];
    let compared = 0;
    for (const prefix of SETS) {
      const names = same.filter((name) => name.startsWith(`${prefix}:`)).map((name) => name.slice(prefix.length + 1));
      const step = Math.max(1, Math.floor(names.length / SVG_ICONS_PER_SET));
      for (const name of names.filter((_, index) => index % step === 0).slice(0, SVG_ICONS_PER_SET)) {
        for (const query of GRID) {
          const path = `/${prefix}/${name}.svg${query ? `?${query}` : ''}`;
          const [ours, theirs] = await Promise.all([text(gateway.url, `/iconify${path}`, { 'x-api-key': key }), text(iconify.url, path)]);
          compared++;
          if (ours.status !== theirs.status || canonical(ours.body) !== canonical(theirs.body) || ours.disposition !== theirs.disposition) {
            differences.push(`${path}: ${ours.status} ${ours.body.slice(0, 300)} | Iconify ${theirs.status} ${theirs.body.slice(0, 300)}`);
          }
        }
      }
    }
    console.log(`SVG files beside the Iconify API: ${compared} compared, ${differences.length} different`);
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(400);
  });

  it("gives the same characters map in /collection?chars=true, but for characters of icons it does not publish", async () => {
    let compared = 0;
    for (const prefix of SETS) {
      const path = `/collection?prefix=${prefix}&chars=true`;
      const [ours, theirs] = await Promise.all([text(gateway.url, `/iconify${path}`), text(iconify.url, path)]);
      const oursChars = (JSON.parse(ours.body) as { chars?: Record<string, string> }).chars ?? {};
      const theirsChars = (JSON.parse(theirs.body) as { chars?: Record<string, string> }).chars ?? {};
      const source = sources.get(prefix)!;
      const unexplained = Object.entries(theirsChars).filter(([char, name]) => oursChars[char] !== name && !knownDifference(source, name)?.match(/hidden/));
      expect(unexplained, prefix).toEqual([]);
      expect(Object.entries(oursChars).filter(([char, name]) => theirsChars[char] !== name), prefix).toEqual([]);
      compared += Object.keys(theirsChars).length;
    }
    expect(compared).toBeGreaterThan(5_000); // mdi's and fluent-emoji-flat's maps
  });
});
