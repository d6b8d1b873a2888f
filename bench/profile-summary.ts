// Where a gateway's CPU time went, from a V8 CPU profile (`node --cpu-prof`; `npm run bench`
// writes one with BENCH_CPU_PROF=1): self time per bucket (an npm package, the project's own
// folders, Node's internals, garbage collection, V8), idle time left out, and the busiest
// functions of each bucket. The project's code runs from its esbuild bundle; its source map
// says which source file each sample fell in.
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [functions per bucket, default 3]
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
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
    if (!url.endsWith('.mjs') && !url.endsWith('.js')) return undefined;
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
  if (path === '') return 'native or builtin (no script)';
  const project = /(?:^|\/)(gateway|resolvers|prisma\/generated|prisma|lib|bench|cli)\//.exec(path);
  return project ? `project: ${project[1]}/` : `other: ${path.replace(/^.*\//, '')}`;
}

export function summarize(profile: Profile): { buckets: Bucket[]; busyMs: number; idleMs: number; totalMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const original = bundleMaps();
  const bucketOfNode = new Map<number, string | undefined>();
  const buckets = new Map<string, Bucket>();
  let busyMs = 0;
  let idleMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000; // a sample's time runs until the next
    const node = byId.get(id)!;
    if (!bucketOfNode.has(id)) {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
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
  return { buckets: [...buckets.values()].sort((a, b) => b.selfMs - a.selfMs), busyMs, idleMs, totalMs: (profile.endTime - profile.startTime) / 1000 };
}

function main(): void {
  const [file, perBucket = '3'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [functions per bucket]');
    process.exit(2);
  }
  const { buckets, busyMs, idleMs, totalMs } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  console.log(`${file}: ${(totalMs / 1000).toFixed(1)} s profiled, ${(busyMs / 1000).toFixed(1)} s busy, ${(idleMs / 1000).toFixed(1)} s idle`);
  console.log('');
  console.log('| bucket (self time) | ms | % of busy | busiest functions |');
  console.log('| --- | ---: | ---: | --- |');
  for (const bucket of buckets) {
    const top = [...bucket.functions].sort((a, b) => b[1] - a[1]).slice(0, Number(perBucket));
    const share = (100 * bucket.selfMs) / Math.max(busyMs, 1e-9);
    if (share < 0.1) continue;
    console.log(`| ${bucket.name} | ${bucket.selfMs.toFixed(0)} | ${share.toFixed(1)} | ${top.map(([name, ms]) => `${name} ${((100 * ms) / busyMs).toFixed(1)} %`).join(', ')} |`);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
