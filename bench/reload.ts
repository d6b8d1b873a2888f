// `npm run bench:reload`: config reloads under load (issue 50). The gateway as `npm start` runs
// it (the bundle, its flags) from a copy of .meshrc.yaml in a temporary folder, driven by
// autocannon with a mix of cached and uncached routes, twice: once without reloads, once with
// BENCH_RELOADS SIGHUPs spread over the run, each to a config that differs from the one before
// (a route's cache time and the hourly limit alternate, so every reload builds and switches to
// a new gateway). A plain node:http server sending the gateway's /categories bytes runs in the
// same session, as the machine's yardstick. Reported: requests per second, p50, p99, errors and
// non-2xx of each run, the reloads the gateway applied (its "Reloaded" log lines) and failed,
// and the p99 of the run with reloads over the run without (the goal: at most 2).
//
// Needs DATABASE_URL (a catalogue database; an API key with a high limit is made in it).
// Settings (environment): BENCH_SECONDS (per run, default 30), BENCH_RELOADS (default 20),
// BENCH_CONNECTIONS (default 10). Appends its table to bench/results-reload.md.
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { GATEWAY_BUNDLE, gatewayStartCommand } from '../lib/start-command.ts';
import { openDatabase } from '../prisma/database.ts';
import { createApiKey } from '../prisma/accounts/api-keys.ts';
import { mustSucceed, runScript, startServer, type ServerChild } from './children.ts';
import { measure, type RunStats } from './load.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const reloads = Number(process.env.BENCH_RELOADS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('bench/reload.ts needs DATABASE_URL (a catalogue database)');
  process.exit(2);
}

const OUT = join(PROJECT_ROOT, 'bench', 'out');
const RESULTS = join(PROJECT_ROOT, 'bench', 'results-reload.md');
const log = (line: string) => console.log(line);

/** Cached routes (one URL each, kept 30-60 s) and uncached ones (a new page or query each time). */
function requestMix(): () => string {
  const cached = ['/categories', '/sets', '/icons?per_page=24', '/icons/mdi-home', '/search?q=arrow&per_page=10'];
  const words = ['arrow', 'home', 'user', 'star', 'file', 'chart', 'cloud', 'heart', 'bell', 'lock'];
  let turn = 0;
  return () => {
    turn++;
    if (turn % 2 === 0) return cached[(turn / 2) % cached.length]!;
    // Pages of lists and searches far apart enough to miss the response cache.
    const page = 2 + (Math.floor(turn / 2) % 400);
    return turn % 4 === 1 ? `/icons?per_page=5&page=${page}` : `/search?q=${words[Math.floor(turn / 4) % words.length]}&per_page=5&page=${(page % 20) + 1}`;
  };
}

/** Two configs a reload alternates between: each differs from the other, so every reload switches gateways. */
function variants(original: string): [string, string] {
  const swap = (from: string, to: string) => {
    if (!original.includes(from)) throw new Error(`.meshrc.yaml no longer has ${from}`);
    return original.replace(from, to);
  };
  return [original, swap('cache: { seconds: 60, scope: shared }', 'cache: { seconds: 61, scope: shared }').replace('hourlyLimit: 1000', 'hourlyLimit: 1001')];
}

function summary(name: string, stats: RunStats): string {
  const codes = Object.entries(stats.statusCodes)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ');
  return `| ${name} | ${Math.round(stats.requestsPerSecond)} | ${stats.p50.toFixed(2)} | ${stats.p99.toFixed(2)} | ${stats.max.toFixed(1)} | ${stats.errors + stats.timeouts} | ${stats.non2xx} | ${codes} |`;
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  mustSucceed('scripts/build-gateway.mjs', await runScript('scripts/build-gateway.mjs', [], process.env));
  const db = await openDatabase({ url: databaseUrl });
  const { key } = await createApiKey(db.prisma, { accountName: `bench-reload-${randomUUID().slice(0, 8)}`, hourlyLimit: 100_000_000 });
  await db.close();

  const dir = await mkdtemp(join(tmpdir(), 'bench-reload-'));
  const children: ServerChild[] = [];
  try {
    const original = await readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8');
    const configs = variants(original);
    await writeFile(join(dir, '.meshrc.yaml'), configs[0]);
    const start = gatewayStartCommand();
    const gatewayLog = join(OUT, 'reload-gateway.log');
    const gateway = await startServer({
      name: 'gateway',
      script: GATEWAY_BUNDLE,
      nodeArgs: start.flags,
      plainNode: true,
      env: { ...process.env, ...start.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', GATEWAY_CONFIG_DIR: dir },
      logFile: gatewayLog,
      timeoutMs: 120_000,
    });
    children.push(gateway);
    const headers = { 'x-api-key': key };

    // The plain server answers /categories with the gateway's own bytes.
    const captured = await fetch(`${gateway.url}/categories`, { headers });
    const body = Buffer.from(await captured.arrayBuffer());
    const replayed: string[] = [];
    captured.headers.forEach((value, name) => {
      if (!['content-length', 'date', 'connection', 'keep-alive'].includes(name)) replayed.push(name, value);
    });
    const responsesFile = join(OUT, 'reload-plain-responses.json');
    await writeFile(responsesFile, JSON.stringify({ '/categories': { body: body.toString('base64'), headers: replayed } }));
    const plain = await startServer({ name: 'plain', script: join(PROJECT_ROOT, 'bench', 'plain-server.ts'), args: [responsesFile], env: { ...process.env, PORT: '0' }, logFile: join(OUT, 'reload-plain.log'), timeoutMs: 30_000 });
    children.push(plain);

    const load = (url: string, nextPath?: () => string) => measure({ url, headers, connections, warmupSeconds: 0, seconds, nextPath });
    log(`Warming up the gateway (5 s)...`);
    await measure({ url: `${gateway.url}/categories`, headers, connections, warmupSeconds: 0, seconds: 5, nextPath: requestMix() });

    log(`Plain node:http server, /categories, ${seconds} s...`);
    const plainStats = await load(`${plain.url}/categories`);
    log(`Gateway, mixed routes, no reloads, ${seconds} s...`);
    const steady = await load(`${gateway.url}/categories`, requestMix());
    log(`Gateway, mixed routes, ${reloads} reloads, ${seconds} s...`);
    const reloadedBefore = countLines(gatewayLog, /Reloaded \S+ \(SIGHUP\)/);
    let sent = 0;
    const interval = (seconds * 1000) / (reloads + 1);
    const timer = setInterval(async () => {
      if (sent >= reloads) return;
      sent++;
      await writeFile(join(dir, '.meshrc.yaml'), configs[sent % 2]!);
      process.kill(gateway.pid, 'SIGHUP');
    }, interval);
    const reloading = await load(`${gateway.url}/categories`, requestMix());
    clearInterval(timer);
    // The last reload's line may come just after the run.
    for (let i = 0; i < 100 && countLines(gatewayLog, /Reloaded \S+ \(SIGHUP\)/) - reloadedBefore < sent; i++) await new Promise((wait) => setTimeout(wait, 50));
    const applied = countLines(gatewayLog, /Reloaded \S+ \(SIGHUP\)/) - reloadedBefore;
    const failed = countLines(gatewayLog, /Reload \(SIGHUP\) failed/);

    const ratio = reloading.p99 / steady.p99;
    const table = [
      '| run | req/s | p50 ms | p99 ms | max ms | errors | non-2xx | statuses |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      summary('plain node:http, /categories', plainStats),
      summary('gateway, mix, no reloads', steady),
      summary(`gateway, mix, ${sent} SIGHUPs`, reloading),
    ].join('\n');
    const text = [
      '',
      `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `Command: \`DATABASE_URL=<catalogue> BENCH_SECONDS=${seconds} BENCH_RELOADS=${reloads} BENCH_CONNECTIONS=${connections} npm run bench:reload\``,
      `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')} at the end.`,
      '',
      table,
      '',
      `Reloads sent ${sent}, applied ${applied}, failed ${failed}. p99 with reloads / without: ${ratio.toFixed(2)} (goal: at most 2). Gateway without reloads / plain: ${(steady.requestsPerSecond / plainStats.requestsPerSecond).toFixed(3)} of its req/s; with reloads / plain: ${(reloading.requestsPerSecond / plainStats.requestsPerSecond).toFixed(3)}.`,
      '',
    ].join('\n');
    log(text);
    appendFileSync(RESULTS, text);
    const problems = [
      reloading.errors + reloading.timeouts > 0 && 'connection errors or timeouts during the reloads',
      reloading.non2xx > 0 && 'non-2xx answers during the reloads',
      applied !== sent && `${sent - applied} reload(s) not applied`,
      ratio > 2 && 'p99 with reloads above twice the p99 without',
    ].filter(Boolean);
    if (problems.length) {
      console.error(`FAILED: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) await child.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function countLines(file: string, pattern: RegExp): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => pattern.test(line)).length;
}

await main();
