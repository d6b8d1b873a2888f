// Where a gateway's CPU time went, from a V8 CPU profile (`node --cpu-prof`; `npm run bench`
// writes one with BENCH_CPU_PROF=1): self time per bucket (an npm package, the project's own
// folders, Node's internals, garbage collection, V8), idle time left out, and the busiest
// functions of each bucket. The project's code runs from its esbuild bundle; its source map
// says which source file each sample fell in. A native function without a script (a socket's
// writev, JSON.parse) counts for the nearest caller that has one. --skip-seconds leaves out
// the start of the profile (the gateway's own start, before the load).
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [--skip-seconds N] [--functions N]
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Bucket {
  name: string;
  selfMs: number;
  functions: Map<string, number>;
}

/** The npm package of a path inside node_modules ("@prisma/client", "pg"), or undefined. */
export function packageOf(path: string): string | undefined {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return match?.[1];
}

function bundleMaps(): (url: string, line: number, column: number) => string | undefined {
  const maps = new Map<string, SourceMap | null>();
  return (url, line, column) => {
    // Only the project's bundle: packages in node_modules are named by their path (their own maps would hide it).
    if ((!url.endsWith('.mjs') && !url.endsWith('.js')) || packageOf(url)) return undefined;
    if (!maps.has(url)) {
      try {
        const file = url.startsWith('file:') ? fileURLToPath(url) : url;
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
      } catch {
        maps.set(url, null);
      }
    }
    const map = maps.get(url);
    const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource;
  };
}

/** The bucket of a sample's function: a package, a project folder, Node, or V8's own. */
export function bucketOf(functionName: string, url: string, source: string | undefined): string | undefined {
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)' || functionName === '(root)') return 'V8 and native code (program)';
  const path = source ?? url;
  const pkg = packageOf(path);
  if (pkg) return pkg;
  if (path.startsWith('node:') || (!path.includes('/') && path !== '')) return 'Node internals (http, net, streams...)';
  if (path === '') return 'native code called from nowhere known';
  const project = /(?:^|\/)(gateway|resolvers|prisma\/generated|prisma|lib|bench|cli)\//.exec(path);
  return project ? `project: ${project[1]}/` : `other: ${path.replace(/^.*\//, '')}`;
}

const SPECIAL = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

export function summarize(profile: Profile, skipSeconds = 0): { buckets: Bucket[]; busyMs: number; idleMs: number; totalMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** The node itself, or for a native function without a script its nearest caller with one. */
  const attributed = (node: ProfileNode): ProfileNode => {
    let current = node;
    while (current.callFrame.url === '' && !SPECIAL.has(current.callFrame.functionName) && parentOf.has(current.id)) current = byId.get(parentOf.get(current.id)!)!;
    return SPECIAL.has(current.callFrame.functionName) ? node : current;
  };
  const original = bundleMaps();
  const bucketOfNode = new Map<number, string | undefined>();
  let clock = profile.startTime;
  const from = profile.startTime + skipSeconds * 1e6;
  const buckets = new Map<string, Bucket>();
  let busyMs = 0;
  let idleMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    clock += profile.timeDeltas[i] ?? 0;
    if (clock < from) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000; // a sample's time runs until the next
    const node = byId.get(id)!;
    if (!bucketOfNode.has(id)) {
      const { url, lineNumber, columnNumber } = attributed(node).callFrame;
      const { functionName } = node.callFrame;
      bucketOfNode.set(id, bucketOf(functionName, url, original(url, lineNumber, columnNumber)));
    }
    const name = bucketOfNode.get(id);
    if (name === undefined) {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const bucket = buckets.get(name) ?? { name, selfMs: 0, functions: new Map() };
    bucket.selfMs += ms;
    const fn = node.callFrame.functionName || '(anonymous)';
    bucket.functions.set(fn, (bucket.functions.get(fn) ?? 0) + ms);
    buckets.set(name, bucket);
  }
  return { buckets: [...buckets.values()].sort((a, b) => b.selfMs - a.selfMs), busyMs, idleMs, totalMs: (profile.endTime - Math.max(from, profile.startTime)) / 1000 };
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'skip-seconds': { type: 'string', default: '0' }, functions: { type: 'string', default: '3' } } });
  const file = positionals[0];
  const skipSeconds = Number(values['skip-seconds']);
  const perBucket = Number(values.functions);
  if (!file || !(skipSeconds >= 0) || !(perBucket >= 0)) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [--skip-seconds N] [--functions N]');
    process.exit(2);
  }
  const { buckets, busyMs, idleMs, totalMs } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, skipSeconds);
  console.log(`${file}${skipSeconds ? ` after its first ${skipSeconds} s` : ''}: ${(totalMs / 1000).toFixed(1)} s profiled, ${(busyMs / 1000).toFixed(1)} s busy, ${(idleMs / 1000).toFixed(1)} s idle`);
  console.log('');
  console.log('| bucket (self time) | ms | % of busy | busiest functions |');
  console.log('| --- | ---: | ---: | --- |');
  for (const bucket of buckets) {
    const top = [...bucket.functions].sort((a, b) => b[1] - a[1]).slice(0, perBucket);
    const share = (100 * bucket.selfMs) / Math.max(busyMs, 1e-9);
    if (share < 0.1) continue;
    console.log(`| ${bucket.name} | ${bucket.selfMs.toFixed(0)} | ${share.toFixed(1)} | ${top.map(([name, ms]) => `${name} ${((100 * ms) / busyMs).toFixed(1)} %`).join(', ')} |`);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
