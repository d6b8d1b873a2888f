// `npm run bench`: the gateway against a plain node:http server sending the same bytes.
//
// 1. Prepares the gateway: without DATABASE_URL, the embedded PGlite directory bench/out/pglite
//    (the first run starts the gateway once so it imports the demo catalogue), and an API key
//    with a high hourly limit made with the operator CLI (kept in bench/out/ and reused while the
//    gateway accepts it). With DATABASE_URL (and REDIS_URL) those are passed through.
// 2. Builds and starts the gateway as `npm start` runs it (dist/gateway.mjs in plain Node with
//    the start script's flags, PORT=0, HOST=127.0.0.1), fetches each scenario twice, and starts
//    bench/plain-server.ts with the second response's headers and body (the goals' baseline),
//    and a second one that sends the body with minimal headers (the baseline of the runs before
//    2026-11-22 04:30 UTC, shown for comparison).
//    With long-tail scenarios (issue 12), first reads the catalogue's vocabulary from the same
//    database (bench/vocabulary.ts; embedded, before the gateway holds the directory) and
//    generates their URL lists from it with fixed seeds (bench/long-tail.ts).
// 3. Drives them with autocannon, warm-up then measured run, rotating which goes first. In a
//    long-tail scenario every request to a gateway, across all connections, takes the next URL
//    of one shared list (each gateway its own cursor, kept through all rounds, so it never sees
//    a URL twice until the list is used up); the plain servers answer one representative URL of
//    the list. Every response's X-Cache is counted (the hit rate of each scenario), and the
//    gateways' memory (VmRSS, VmHWM) is read after each long-tail scenario.
// 4. Prints the table and the goals, appends them to bench/RESULTS.md, stops the children.
//
// With BENCH_COMPARE_REF=<git ref>, the gateway of that commit runs too, as a third server
// measured in the same rounds (bench/compare.ts prepares it in bench/out/compare-<sha>/): same
// environment and key, the same PostgreSQL database or a copy of the PGlite directory. The
// round with the median new/old ratio (this checkout's gateway over that one) is kept, and a
// second table gives new/old per scenario, flagging those below 0.90.
//
// Settings (environment): BENCH_SECONDS (measured seconds per run, default 5),
// BENCH_WARMUP_SECONDS (default 2), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (rounds per
// scenario, the median ratio kept; default 3), BENCH_KEY_LIMIT (hourly limit of a new bench
// key, default 100000000), BENCH_BODY_ONLY (1 adds the minimal-headers baseline; default 0 since issue 12),
// BENCH_COMPARE_REF (a commit whose gateway to measure beside this checkout's; default none),
// BENCH_ICONIFY_API (the directory of a built checkout of github.com/iconify/api, run beside
// the gateway for the search, Zipf and single-icon long tails, bench/iconify-api.ts; default none).
// Issue 12: BENCH_SCENARIOS (comma-separated scenario ids, or the groups "cached" and
// "long-tail"; default all): cached: icon, svg-file, icons, icons-svg, search-home,
// search-arrow-left, categories, sets, suggest, graphql; long-tail: search-miss, single-miss,
// list-miss, search-zipf, svg-miss, and Iconify's protocol (issue 47; the gateway under /iconify,
// the Iconify API at its root): iconify-data (1-20 icons of one set, Zipf), iconify-single,
// iconify-svg (Zipf), iconify-data-kept and iconify-svg-kept (a short list cycled: every answer
// kept, the gateway's ceiling), iconify-search (distinct queries).
// BENCH_SEARCH_QUERIES (distinct search queries; default as many as the vocabulary gives in the
// documented mix, up to 40000: 12,000 or so embedded), BENCH_ZIPF_QUERIES (the last
// so many of them are the Zipf mix's list; default 12000),
// BENCH_SINGLE_ICONS (distinct icons; default 100000, at most the catalogue's free icons),
// BENCH_LIST_URLS (distinct list pages; default 50000), BENCH_ZIPF_S (the Zipf mix's exponent;
// default 1), BENCH_SEED (seed of the generated lists; default 12). BENCH_CPU_PROF=1 starts this
// checkout's gateway with `node --cpu-prof` (the profile is written to bench/out/profiles/ when
// it stops; `npx tsx bench/profile-summary.ts <file>` sums it up by package).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release } from 'node:os';
import { join, relative } from 'node:path';
import { waitUntilQuiet } from './settle.ts';
import { mustSucceed, processCpuSeconds, processMemory, runningChildren, runScript, startServer, type ServerChild } from './children.ts';
import { copyDataDirectory, describeTarget, describeThisCheckout, prepareComparedBuild, resolveCompareTarget, type ComparedBuild, type CompareTarget } from './compare.ts';
import { hitRate } from './cache-header.ts';
import { iconifyApiIcons, startIconifyApi } from './iconify-api.ts';
import { writeAnonymousConfig } from './anonymous-config.ts';
import { measure, type RunStats } from './load.ts';
import { DEFAULT_SEED, LONG_TAIL_IDS, longTailScenarios, type LongTailSettings } from './long-tail.ts';
import { ICONIFY_MEMORY_RATIO_GOAL, longTailGoals } from './long-tail-goals.ts';
import type { UrlCursor } from './url-source.ts';
import { foldLeftoverDownloads } from './leftover-downloads.ts';
import { readTableHealth } from './table-health.ts';
import { readVocabulary } from './vocabulary.ts';
import { redactUrl } from '../lib/redact-url.ts';
import { GATEWAY_BUNDLE, gatewayStartCommand } from '../lib/start-command.ts';
import {
  appendResults,
  comparisonTable,
  comparisonVerdict,
  cpuRatioOf,
  errorBanner,
  evaluateGoals,
  findProblems,
  formatCpu,
  formatHitRate,
  formatInt,
  formatMiddleHalf,
  formatMs,
  formatRatio,
  goalLines,
  longTailTable,
  ratioOf,
  resultsTable,
  slowerFlag,
  type GatewayFigures,
  type LongTailFigures,
  type RunContext,
  type Scenario,
  type ScenarioResult,
} from './report.ts';

const BENCH_DIR = import.meta.dirname;
const OUT_DIR = join(BENCH_DIR, 'out');
const RESULTS_FILE = join(BENCH_DIR, 'RESULTS.md');
const GATEWAY_LOG = join(OUT_DIR, 'gateway.log');
const PLAIN_LOG = join(OUT_DIR, 'plain-server.log');
const BODY_ONLY_LOG = join(OUT_DIR, 'plain-server-body-only.log');
const PLAIN_RESPONSES = join(OUT_DIR, 'plain-responses.json');
const ICONIFY_LOG = join(OUT_DIR, 'iconify-api.log');
/** Headers node writes itself, on the gateway's responses and the plain server's alike. */
const NODE_WRITTEN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const PGLITE_DIR = join(OUT_DIR, 'pglite');
const PGLITE_READY = join(OUT_DIR, 'pglite.bootstrapped');
const PROFILE_DIR = join(OUT_DIR, 'profiles');

const BOOTSTRAP_TIMEOUT_MS = 10 * 60_000;
const START_TIMEOUT_MS = 3 * 60_000;
/** How long measuring waits for the gateways to finish their start-up work. */
const SETTLE_TIMEOUT_MS = 2 * 60_000;
const DEFAULT_ICON = 'mdi-home';
const GRAPHQL_QUERY = '{icons(perPage:24){data{id slug name}}}';
/** A generous ceiling on gateway req/s, to tell whether a reused key has enough left this hour. */
const MAX_EXPECTED_GATEWAY_RPS = 25_000;

// ---------------------------------------------------------------------------------------------
// Settings

function numberSetting(name: string, fallback: number, { min, integer }: { min: number; integer?: boolean }): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${integer ? 'a whole number' : 'a number'} of at least ${min} (got "${text}")`);
  }
  return value;
}

const settings = {
  seconds: numberSetting('BENCH_SECONDS', 5, { min: 1 }),
  warmupSeconds: numberSetting('BENCH_WARMUP_SECONDS', 2, { min: 0 }),
  connections: numberSetting('BENCH_CONNECTIONS', 10, { min: 1, integer: true }),
  keyLimit: numberSetting('BENCH_KEY_LIMIT', 100_000_000, { min: 1, integer: true }),
  rounds: numberSetting('BENCH_ROUNDS', 3, { min: 1, integer: true }),
  bodyOnly: numberSetting('BENCH_BODY_ONLY', 0, { min: 0, integer: true }) > 0,
};

const longTailSettings: LongTailSettings = {
  // Unset: as many as the catalogue's vocabulary gives in the documented mix, up to 40,000.
  searchQueries: process.env.BENCH_SEARCH_QUERIES ? numberSetting('BENCH_SEARCH_QUERIES', 0, { min: 1, integer: true }) : { atMost: 40_000 },
  zipfQueries: numberSetting('BENCH_ZIPF_QUERIES', 12_000, { min: 1, integer: true }),
  singleIcons: numberSetting('BENCH_SINGLE_ICONS', 100_000, { min: 1, integer: true }),
  listUrls: numberSetting('BENCH_LIST_URLS', 50_000, { min: 1, integer: true }),
  zipfS: numberSetting('BENCH_ZIPF_S', 1, { min: 0 }),
  seed: numberSetting('BENCH_SEED', DEFAULT_SEED, { min: 0, integer: true }),
};

const CACHED_IDS = ['icon', 'svg-file', 'icons', 'icons-svg', 'search-home', 'search-arrow-left', 'categories', 'sets', 'suggest', 'graphql'] as const;

/** BENCH_SCENARIOS as a set of scenario ids (default: all). */
function selectedScenarios(): Set<string> {
  const text = process.env.BENCH_SCENARIOS?.trim();
  if (!text) return new Set([...CACHED_IDS, ...LONG_TAIL_IDS]);
  const groups: Record<string, readonly string[]> = { cached: CACHED_IDS, 'long-tail': LONG_TAIL_IDS };
  const known = new Set<string>([...CACHED_IDS, ...LONG_TAIL_IDS]);
  const selected = new Set<string>();
  for (const name of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    if (groups[name]) for (const id of groups[name]) selected.add(id);
    else if (known.has(name)) selected.add(name);
    else throw new Error(`BENCH_SCENARIOS: unknown scenario "${name}" (known: cached, long-tail, ${[...known].join(', ')})`);
  }
  return selected;
}

const selected = selectedScenarios();
const wanted = (id: string) => selected.has(id);

const compareRef = process.env.BENCH_COMPARE_REF || undefined;
const cpuProfile = process.env.BENCH_CPU_PROF === '1';
const iconifyDir = process.env.BENCH_ICONIFY_API || undefined;

const SETTINGS_TEXT = `${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s measured per server, ${settings.rounds} rounds per scenario (median ${compareRef ? 'new/old ' : ''}ratio kept)`;

const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || undefined;
const embedded = !databaseUrl;
/** The database the gateway will serve, as the bench's own readers open it. */
const databaseSource = embedded ? { dataDir: PGLITE_DIR } : { url: databaseUrl };

function gatewayEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1' };
  if (embedded) env.PGLITE_DATA_DIR = PGLITE_DIR;
  return env;
}

/**
 * Scenarios marked anonymous (Iconify's protocol) go without the key, under an anonymous limit
 * the bench's copy of .meshrc.yaml raises for the loopback addresses; not beside a compared
 * commit, whose gateway may not know that option (then they carry the key, as before).
 */
const ANONYMOUS_CONFIG_DIR = join(OUT_DIR, 'anonymous-config');
const ANONYMOUS_HOURLY_LIMIT = 1_000_000_000;
let anonymousCallers = false;

const callerKey = (scenario: Scenario, key: string) => (anonymousCallers && scenario.anonymous ? undefined : key);

const log = (line = '') => console.log(line);
const rel = (path: string) => relative(process.cwd(), path) || '.';

// ---------------------------------------------------------------------------------------------
// Scenarios

/** The repeated-URL scenarios (one URL each, mostly cache hits) that BENCH_SCENARIOS selects. */
function cachedScenarios(iconSlug: string, svgPath: string): Scenario[] {
  const all: Scenario[] = [
    { id: 'icon', label: `/icons/${iconSlug}`, path: `/icons/${encodeURIComponent(iconSlug)}`, minRatio: 0.4 },
    { id: 'svg-file', label: svgPath, path: svgPath },
    { id: 'icons', label: '/icons', path: '/icons', minRatio: 0.25 },
    { id: 'icons-svg', label: '/icons?per_page=100&include_svg=1', path: '/icons?per_page=100&include_svg=1' },
    { id: 'search-home', label: '/search?q=home', path: '/search?q=home', minRatio: 0.1, goalScope: 'demo catalogue', iconifyRps: 850 },
    { id: 'search-arrow-left', label: '/search?q=arrow%20left', path: '/search?q=arrow%20left', iconifyRps: 330 },
    { id: 'categories', label: '/categories', path: '/categories', minRatio: 0.4 },
    { id: 'sets', label: '/sets', path: '/sets' },
    { id: 'suggest', label: '/suggest?q=arr', path: '/suggest?q=arr' },
    { id: 'graphql', label: `GraphQL ${GRAPHQL_QUERY}`, path: `/graphql?query=${encodeURIComponent(GRAPHQL_QUERY)}` },
  ];
  return all.filter((scenario) => wanted(scenario.id));
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

interface Fetched {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function get(base: string, path: string, key?: string): Promise<Fetched> {
  // identity: what autocannon sends (no Accept-Encoding); fetch would ask for gzip, and the
  // compressed files' headers would then be replayed with the bytes fetch decoded.
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(key ? { 'x-api-key': key } : {}) };
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** The response's headers the plain server replays, as a flat [name, value, ...] list. */
function replayedHeaders(fetched: Fetched): string[] {
  return [...fetched.headers].filter(([name]) => !NODE_WRITTEN_HEADERS.has(name)).flat();
}

function json(fetched: Fetched): unknown {
  try {
    return JSON.parse(fetched.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short description of a body, to check the scenarios return what they should. */
function summarize(body: unknown): string {
  if (!isObject(body)) return 'not JSON';
  if (body.errors) return `GraphQL errors: ${JSON.stringify(body.errors).slice(0, 200)}`;
  let data = body.data;
  if (isObject(data) && isObject(data.icons)) data = data.icons.data; // GraphQL icons page
  const meta = isObject(body.meta) ? body.meta : undefined;
  if (Array.isArray(data)) {
    const withSvg = data.filter((item) => isObject(item) && typeof item.svg === 'string').length;
    return (
      `${data.length} items` +
      (meta && typeof meta.total === 'number' ? ` of ${formatInt(meta.total)}` : '') +
      (withSvg ? `, ${withSvg} with svg` : '')
    );
  }
  if (isObject(data)) return `one item: ${String(data.slug ?? data.id ?? '?')}${typeof data.svg === 'string' ? ' with svg' : ''}`;
  // Iconify's protocol: icon data (IconifyJSON) and search results.
  if (typeof body.prefix === 'string' && isObject(body.icons)) {
    const missing = Array.isArray(body.not_found) ? `, ${body.not_found.length} not found` : '';
    return `${Object.keys(body.icons).length} icons of ${body.prefix}${isObject(body.aliases) ? ` and ${Object.keys(body.aliases).length} aliases` : ''}${missing}`;
  }
  if (Array.isArray(body.icons) && typeof body.total === 'number') return `${body.icons.length} icons of ${formatInt(body.total)} found`;
  return 'unexpected shape';
}

// ---------------------------------------------------------------------------------------------
// Preparation: the gateway, its data directory and key

/** Builds what `npm start` runs: the gateway bundled by scripts/build-gateway.mjs. */
async function buildGateway(): Promise<void> {
  mustSucceed('scripts/build-gateway.mjs', await runScript('scripts/build-gateway.mjs', [], process.env));
}

/** This checkout's gateway as `npm start` runs it: the bundle in plain Node, with the start script's flags. */
function startCurrentGateway(name = 'gateway', timeoutMs = START_TIMEOUT_MS): Promise<ServerChild> {
  const profiling = cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  // Extra flags for this gateway alone, to look inside it (`--trace-gc`, `--require <sampler>`).
  const extra = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const start = gatewayStartCommand();
  const config = anonymousCallers ? { GATEWAY_CONFIG_DIR: ANONYMOUS_CONFIG_DIR } : {};
  return startServer({ name, script: GATEWAY_BUNDLE, args: [], nodeArgs: [...start.flags, ...profiling, ...extra], plainNode: true, env: { ...gatewayEnv(), ...config, ...start.env }, logFile: GATEWAY_LOG, timeoutMs });
}

const servingLine = (server: ServerChild, logFile: string) =>
  `  serving at ${server.url} after ${(server.readyMs / 1000).toFixed(1)} s (pid ${server.pid}); log: ${rel(logFile)}`;

async function bootstrapEmbedded(): Promise<void> {
  if (existsSync(PGLITE_READY) && existsSync(PGLITE_DIR)) return;
  log(`First run: creating ${rel(PGLITE_DIR)} by starting the gateway once (imports the demo catalogue, about 30 s)...`);
  await rm(PGLITE_READY, { force: true });
  await rm(keyFile(), { force: true });
  const gateway = await startCurrentGateway('gateway (bootstrap)', BOOTSTRAP_TIMEOUT_MS);
  log(`  bootstrapped in ${(gateway.readyMs / 1000).toFixed(1)} s; stopping it`);
  await gateway.stop();
  await writeFile(PGLITE_READY, `${new Date().toISOString()}\n`);
}

function keyFile(): string {
  const id = embedded ? 'pglite' : `pg-${createHash('sha256').update(databaseUrl!).digest('hex').slice(0, 12)}`;
  return join(OUT_DIR, `bench-api-key.${id}.txt`);
}

async function cachedKey(): Promise<string | undefined> {
  try {
    const key = (await readFile(keyFile(), 'utf8')).trim();
    return key || undefined;
  } catch {
    return undefined;
  }
}

/** A new key from the operator CLI (embedded: only while no gateway holds the directory). */
async function createKey(): Promise<string> {
  log(`Creating a bench API key (account "bench", limit ${formatInt(settings.keyLimit)} an hour) with the operator CLI...`);
  const result = await runScript('cli/main.ts', ['keys', 'create', '--account', 'bench', '--limit', String(settings.keyLimit)], gatewayEnv());
  const lines = result.stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  const key = lines.at(-1);
  if (result.code !== 0 || !key || !/^ick_\S+$/.test(key)) {
    throw new Error(`keys create failed (exit ${result.code}):\n${result.stderr.trim() || result.stdout.trim()}`);
  }
  await writeFile(keyFile(), `${key}\n`, { mode: 0o600 });
  await chmod(keyFile(), 0o600);
  return key;
}

/** Why a key will not do for this run, or undefined when it will. */
async function keyProblem(gateway: ServerChild, key: string, requestsNeeded: number): Promise<string | undefined> {
  const probe = await get(gateway.url, '/categories', key);
  if (probe.status === 401 || probe.status === 403) return `the gateway refused the saved key (${probe.status})`;
  if (probe.status === 429) return 'the saved key is rate limited';
  if (probe.status !== 200) throw new Error(`GET /categories answered ${probe.status}: ${probe.body.toString('utf8').slice(0, 300)}`);
  const remaining = Number(probe.headers.get('x-ratelimit-remaining'));
  if (Number.isFinite(remaining) && remaining < requestsNeeded) return `the saved key has ${formatInt(remaining)} requests left this hour`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Starting the gateways

/** The compared commit's gateway, ready to start: its worktree, dependencies, Prisma client and bundle. */
async function prepareCompared(target: CompareTarget): Promise<ComparedBuild> {
  log(`Preparing the gateway of ${describeTarget(target)} in ${rel(target.dir)}...`);
  const build = await prepareComparedBuild(target, log);
  log(`  node_modules: ${build.dependencies}`);
  return build;
}

/**
 * This checkout's gateway and a key it accepts: the saved one, or a new one when that will not
 * do. Embedded with BENCH_COMPARE_REF, the compared gateway's copy of the PGlite directory is
 * taken before each start, while no process holds the directory (a restart follows a new key,
 * which the copy must hold too).
 */
async function startGatewayWithKey(requestsNeeded: number, compareTarget: CompareTarget | undefined): Promise<{ gateway: ServerChild; key: string }> {
  const start = async () => {
    if (embedded && compareTarget) await copyDataDirectory(PGLITE_DIR, compareTarget);
    return startCurrentGateway();
  };
  let key = (await cachedKey()) ?? (await createKey());
  log('Starting the gateway...');
  let gateway = await start();
  const problem = await keyProblem(gateway, key, requestsNeeded);
  if (problem) {
    log(`  ${problem}: making a new one`);
    if (embedded) {
      await gateway.stop(); // the CLI needs the directory
      key = await createKey();
      gateway = await start();
    } else {
      key = await createKey();
    }
    const again = await keyProblem(gateway, key, requestsNeeded);
    if (again) throw new Error(`the new bench key does not work either: ${again}`);
  }
  log(servingLine(gateway, GATEWAY_LOG));
  return { gateway, key };
}

/** The compared commit's gateway as its own start script runs it, in its worktree, with this run's environment and key. */
async function startComparedGateway(target: CompareTarget, build: ComparedBuild, key: string, requestsNeeded: number): Promise<ServerChild> {
  log(`Starting the gateway of ${target.ref}...`);
  const env = { ...(embedded ? { ...gatewayEnv(), PGLITE_DATA_DIR: target.pgliteDir } : gatewayEnv()), ...build.env };
  const server = await startServer({
    name: `gateway of ${target.ref}`,
    script: build.bundle,
    args: [],
    nodeArgs: build.nodeArgs,
    plainNode: true,
    cwd: target.checkout,
    env,
    logFile: target.logFile,
    timeoutMs: START_TIMEOUT_MS,
  });
  const problem = await keyProblem(server, key, requestsNeeded);
  if (problem) throw new Error(`the gateway of ${target.ref} will not do with the bench key: ${problem}`);
  log(servingLine(server, target.logFile));
  return server;
}

// ---------------------------------------------------------------------------------------------
// Machine and catalogue

function machineDescription(): string {
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // keep os.cpus()
  }
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
    model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? model;
  } catch {
    // keep os.cpus()
  }
  const load = loadavg().map((value) => value.toFixed(2)).join(' ');
  return `nproc ${nproc}, ${model}, Node ${process.version}, ${platform()} ${release()}, load average at start ${load}`;
}

async function catalogueSize(gateway: ServerChild, key: string): Promise<{ icons: number; categories: number }> {
  const query = '{icons(perPage:1){meta{total}} categories{slug}}';
  const body = json(await get(gateway.url, `/graphql?query=${encodeURIComponent(query)}`, key));
  const data = isObject(body) && isObject(body.data) ? body.data : {};
  const icons = isObject(data.icons) && isObject(data.icons.meta) ? Number(data.icons.meta.total) : NaN;
  const categories = Array.isArray(data.categories) ? data.categories.length : NaN;
  return { icons, categories };
}

function commandLine(): string {
  const vars = ['BENCH_CPU_PROF', 'BENCH_SCENARIOS', 'BENCH_SECONDS', 'BENCH_WARMUP_SECONDS', 'BENCH_CONNECTIONS', 'BENCH_ROUNDS', 'BENCH_BODY_ONLY', 'BENCH_COMPARE_REF', 'BENCH_SEARCH_QUERIES', 'BENCH_ZIPF_QUERIES', 'BENCH_SINGLE_ICONS', 'BENCH_LIST_URLS', 'BENCH_ZIPF_S', 'BENCH_SEED', 'BENCH_ICONIFY_API', 'ICONIFY_SOURCE', 'DATABASE_URL', 'REDIS_URL', 'REDIS_CLUSTER_NODES', 'LOG_LEVEL', 'NODE_OPTIONS']
    .filter((name) => process.env[name])
    .map((name) => {
      const value = process.env[name]!;
      if (name.endsWith('_URL')) return `${name}=${redactUrl(value)}`;
      if (name === 'REDIS_CLUSTER_NODES') return `${name}=<${value.split(',').length} nodes>`; // may hold passwords
      return `${name}=${value}`;
    });
  const base = process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'npx tsx bench/run.ts';
  return [...vars, base].join(' ');
}

// ---------------------------------------------------------------------------------------------
// The run

interface Captured {
  body: Buffer;
  headers: string[];
  summary: string;
}

/** What a server answers once it has answered the same request before, as measured requests are served. */
async function secondResponse(server: ServerChild, path: string, key: string | undefined): Promise<Fetched> {
  await get(server.url, path, key);
  return get(server.url, path, key);
}

function assertAnswered(scenario: Scenario, fetched: Fetched, summary: string, server: string): void {
  if (fetched.status < 200 || fetched.status > 299 || summary.startsWith('GraphQL errors') || summary === 'not JSON') {
    throw new Error(`${scenario.label} answered ${fetched.status} on the ${server}: ${fetched.body.toString('utf8').slice(0, 500)}`);
  }
}

/** What a response holds: an SVG file, or what its JSON holds. */
function describeBody(fetched: Fetched): string {
  const isSvg = fetched.headers.get('content-type')?.startsWith('image/svg+xml') && fetched.body.subarray(0, 4).toString('latin1') === '<svg';
  return isSvg ? 'an SVG file' : summarize(json(fetched));
}

/** The path of an icon's SVG file, from its svg_url (which names the gateway's own base URL). */
async function svgPathOf(gateway: ServerChild, slug: string, key: string): Promise<string> {
  const icon = json(await get(gateway.url, `/icons/${encodeURIComponent(slug)}`, key));
  const svgUrl = isObject(icon) && isObject(icon.data) ? icon.data.svg_url : undefined;
  if (typeof svgUrl !== 'string') throw new Error(`/icons/${slug} has no svg_url`);
  const { pathname, search } = new URL(svgUrl);
  return `${pathname}${search}`;
}

/** The scenarios (with the icon the catalogue has) and the gateway's answers to them, replayed by the plain servers. */
async function captureScenarios(gateway: ServerChild, key: string, longTail: Scenario[]): Promise<{ list: Scenario[]; captured: Map<string, Captured> }> {
  let iconSlug = DEFAULT_ICON;
  const icon = await get(gateway.url, `/icons/${DEFAULT_ICON}`, key);
  if (icon.status !== 200) {
    const free = json(await get(gateway.url, '/icons?license=free&per_page=1', key));
    const first = isObject(free) && Array.isArray(free.data) && isObject(free.data[0]) ? free.data[0] : undefined;
    if (!first || typeof first.slug !== 'string') throw new Error(`/icons/${DEFAULT_ICON} answered ${icon.status} and no free icon was found`);
    iconSlug = first.slug;
    log(`  /icons/${DEFAULT_ICON} answered ${icon.status}; using the free icon ${iconSlug}`);
  }
  const list = [...cachedScenarios(iconSlug, await svgPathOf(gateway, iconSlug, key)), ...longTail];
  const captured = new Map<string, Captured>();
  log('Scenarios (from the gateway; the second response is the one replayed, as measured requests are served):');
  for (const scenario of list) {
    const fetched = await secondResponse(gateway, scenario.path, callerKey(scenario, key));
    const summary = describeBody(fetched);
    log(`  ${String(fetched.status)} ${scenario.label}: ${formatInt(fetched.body.length)} bytes, ${summary}${scenario.urls ? ` (representative: ${scenario.path})` : ''}`);
    assertAnswered(scenario, fetched, summary, 'gateway');
    const limit = fetched.headers.get('x-ratelimit-limit');
    if (!callerKey(scenario, key) && limit !== String(ANONYMOUS_HOURLY_LIMIT)) {
      throw new Error(`${scenario.label}: an anonymous request's X-RateLimit-Limit is ${limit}, not the ${ANONYMOUS_HOURLY_LIMIT} of ${rel(ANONYMOUS_CONFIG_DIR)}/.meshrc.yaml`);
    }
    captured.set(scenario.path, { body: fetched.body, headers: replayedHeaders(fetched), summary });
  }
  return { list, captured };
}

/**
 * A body with the address of the gateway that served it (in `svg_url` and `url`: its own port)
 * written as a placeholder, so that two gateways' bodies compare. latin1: every byte kept as is.
 */
function withoutOwnAddress(body: Buffer, server: ServerChild): string {
  const { port } = new URL(server.url);
  return body.toString('latin1').replaceAll(`localhost:${port}`, 'localhost:PORT').replaceAll(`127.0.0.1:${port}`, '127.0.0.1:PORT');
}

/** The compared gateway must answer every scenario; the log says where its body differs from this checkout's gateway's (its address aside). */
async function checkComparedAnswers(gateway: ServerChild, old: ServerChild, list: Scenario[], captured: Map<string, Captured>, key: string): Promise<void> {
  log(`Scenarios on the ${old.name}:`);
  for (const scenario of list) {
    const fetched = await secondResponse(old, scenario.path, callerKey(scenario, key));
    const summary = describeBody(fetched);
    const same = withoutOwnAddress(fetched.body, old) === withoutOwnAddress(captured.get(scenario.path)!.body, gateway);
    log(`  ${String(fetched.status)} ${scenario.label}: ${formatInt(fetched.body.length)} bytes, ${same ? 'the same body as the new gateway' : `a different body from the new gateway's: ${summary}`}`);
    assertAnswered(scenario, fetched, summary, old.name);
  }
}

async function startPlainServers(list: Scenario[], captured: Map<string, Captured>, key: string): Promise<{ plain: ServerChild; bodyOnly?: ServerChild }> {
  await writeFile(
    PLAIN_RESPONSES,
    JSON.stringify(Object.fromEntries([...captured].map(([path, { body, headers }]) => [path, { body: body.toString('base64'), headers }]))),
  );
  const startPlain = async (name: string, logFile: string, headerMode: 'gateway' | 'minimal') => {
    log(`Starting the ${name}...`);
    const server = await startServer({
      name,
      script: 'bench/plain-server.ts',
      args: [PLAIN_RESPONSES],
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', EXIT_WITH_PARENT: '1', PLAIN_HEADERS: headerMode },
      logFile,
      timeoutMs: 60_000,
      stdinPipe: true,
    });
    for (const scenario of list) {
      const fetched = await get(server.url, scenario.path, key);
      const expected = captured.get(scenario.path)!;
      const headers = replayedHeaders(fetched);
      const sameHeaders = headerMode === 'minimal' || headers.join('\n') === expected.headers.join('\n');
      if (fetched.status !== 200 || !fetched.body.equals(expected.body) || !sameHeaders) {
        throw new Error(`the ${name} does not answer ${scenario.path} with the gateway's bytes (status ${fetched.status})`);
      }
    }
    log(`  serving at ${server.url} (pid ${server.pid})`);
    return server;
  };
  const plain = await startPlain('plain node:http server', PLAIN_LOG, 'gateway');
  const bodyOnly = settings.bodyOnly ? await startPlain('plain node:http server with minimal headers', BODY_ONLY_LOG, 'minimal') : undefined;
  return { plain, ...(bodyOnly ? { bodyOnly } : {}) };
}

interface MeasuredServers {
  /** This checkout's gateway ("new"). */
  gateway: ServerChild;
  /** The gateway of BENCH_COMPARE_REF ("old"). */
  old?: ServerChild;
  plain: ServerChild;
  bodyOnly?: ServerChild;
  /** The Iconify API (BENCH_ICONIFY_API), measured on the scenarios it has an equivalent of. */
  iconify?: ServerChild;
}

type RoundStats = Map<ServerChild, RunStats>;

const rps = (stats: RoundStats, server: ServerChild) => stats.get(server)!.requestsPerSecond;
const newOldOf = (stats: RoundStats, servers: MeasuredServers) => rps(stats, servers.gateway) / Math.max(1, rps(stats, servers.old!));
const oldNewCpuOf = (stats: RoundStats, servers: MeasuredServers) => cpuRatioOf(stats.get(servers.gateway)!, stats.get(servers.old!)!);

/**
 * Each round measures every server back to back; the round with the median ratio is kept (new
 * over old when comparing, else gateway over plain), because one round on a shared 2-core
 * machine can be off by 15 % either way.
 */
function keptRound(rounds: RoundStats[], servers: MeasuredServers): RoundStats {
  const ratio = (stats: RoundStats) => (servers.old ? newOldOf(stats, servers) : rps(stats, servers.gateway) / Math.max(1, rps(stats, servers.plain)));
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** One server's figures; the X-Cache hit rate for gateways only (a plain server replays the header it captured). */
function describe(server: string, stats: RunStats, isGateway = true): string {
  const bad = stats.non2xx + stats.errors + stats.timeouts;
  const hits = isGateway ? hitRate(stats.cache) : NaN;
  const cpu = Number.isFinite(stats.cpuMicrosPerResponse) ? `, CPU ${formatCpu(stats.cpuMicrosPerResponse)} µs/response` : '';
  return `${server} ${formatInt(stats.requestsPerSecond).padStart(6)} req/s p50 ${formatMs(stats.p50)} p99 ${formatMs(stats.p99)} max ${formatMs(stats.max)} ms${Number.isFinite(hits) ? `, X-Cache hits ${formatHitRate(stats)}` : ''}${cpu}${bad ? `  <-- ${formatInt(bad)} ERRORS` : ''}`;
}

function logScenarioResult(result: ScenarioResult, position: string): void {
  const { gateway, compared, plain, plainBodyOnly } = result;
  log(`  ${position} ${result.scenario.label}`);
  log(`        ${describe('gateway', gateway)}`);
  if (compared) {
    const newOld = ratioOf(gateway, compared.stats);
    const middle = formatMiddleHalf(compared.roundRatios);
    const spread = middle ? `, middle half ${middle}` : '';
    const rounds = compared.roundRatios.length > 1 ? ` (rounds ${compared.roundRatios.map(formatRatio).join(' ')}${spread})` : '';
    const flag = slowerFlag(newOld);
    log(`        ${describe('old    ', compared.stats)}   new/old ${formatRatio(newOld)}${rounds}${flag ? `  <-- ${flag}` : ''}`);
    log(`        CPU per response old/new ${compared.roundCpuRatios.map(formatRatio).join(' ')} (by round)`);
  }
  log(`        ${describe('plain  ', plain, false)}   ratio ${formatRatio(ratioOf(gateway, plain))}`);
  if (plainBodyOnly) log(`        ${describe('minimal', plainBodyOnly, false)}   ratio ${formatRatio(ratioOf(gateway, plainBodyOnly))} (plain with minimal headers)`);
  if (result.iconify) {
    const rounds = result.iconify.roundRatios.map(formatRatio).join(' ');
    log(`        ${describe('Iconify', result.iconify.stats, false)}   gateway/Iconify ${formatRatio(ratioOf(gateway, result.iconify.stats))} (rounds ${rounds})`);
  }
}

async function measureScenarios(servers: MeasuredServers, list: Scenario[], captured: Map<string, Captured>, key: string): Promise<ScenarioResult[]> {
  // Measurements: rotate which server goes first, so none always runs on a warmer machine.
  const headers = { 'x-api-key': key };
  const { gateway, old, plain, bodyOnly, iconify } = servers;
  const gateways = new Set([gateway, ...(old ? [old] : [])]);
  // Long-tail scenarios: each gateway (and the Iconify API) its own cursor per scenario, for the whole run.
  const cursors = new Map<string, UrlCursor>();
  const cursorOf = (scenario: Scenario, server: ServerChild) => {
    const id = `${scenario.id} ${server.pid}`;
    const urls = server === iconify ? scenario.iconify!.urls : scenario.urls!;
    if (!cursors.has(id)) cursors.set(id, urls.cursor());
    return cursors.get(id)!;
  };
  const load = (server: ServerChild, scenario: Scenario, { seconds = settings.seconds } = {}) => {
    const isIconify = server === iconify;
    const cursor = scenario.urls && (gateways.has(server) || isIconify) ? cursorOf(scenario, server) : undefined;
    return measure({
      url: `${server.url}${isIconify ? scenario.iconify!.path : scenario.path}`,
      headers: isIconify ? {} : { ...(callerKey(scenario, key) && headers), ...scenario.headers },
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      seconds,
      ...(cursor && { nextPath: () => cursor.next() }),
      ...((gateways.has(server) || isIconify) && { serverCpuSeconds: () => processCpuSeconds(server.pid) }),
    });
  };
  const measured = [gateway, ...(old ? [old] : []), plain, ...(bodyOnly ? [bodyOnly] : [])];
  /** The servers a scenario is measured on: the Iconify API only where it has an equivalent. */
  const serversOf = (scenario: Scenario) => (iconify && scenario.iconify ? [...measured, iconify] : measured);
  const serverRuns = list.reduce((sum, scenario) => sum + serversOf(scenario).length, 0);
  // One warm-up pass over every scenario and server before the first round: one scenario's
  // warm-up did not settle the gateway's JIT (its first rounds ran 10 to 15 % slower).
  const warmup = (settings.warmupSeconds + 1) * serverRuns;
  log(`Warming up every scenario on every server (about ${Math.round(warmup)} s)...`);
  for (const scenario of list) for (const server of serversOf(scenario)) await load(server, scenario, { seconds: 1 });
  const perRun = (settings.warmupSeconds + settings.seconds) * serverRuns * settings.rounds;
  log(`Measuring ${list.length} scenarios (about ${Math.round(perRun)} s)...`);
  const results: ScenarioResult[] = [];
  for (const [index, scenario] of list.entries()) {
    const rounds: RoundStats[] = [];
    const all = serversOf(scenario);
    for (let round = 0; round < settings.rounds; round++) {
      const shift = (index + round) % all.length;
      const stats: RoundStats = new Map();
      for (const server of [...all.slice(shift), ...all.slice(0, shift)]) stats.set(server, await load(server, scenario));
      rounds.push(stats);
    }
    const stats = keptRound(rounds, servers);
    const { body, summary } = captured.get(scenario.path)!;
    const result: ScenarioResult = {
      scenario,
      bodyBytes: body.length,
      bodySummary: summary,
      gateway: stats.get(gateway)!,
      plain: stats.get(plain)!,
      ...(bodyOnly ? { plainBodyOnly: stats.get(bodyOnly)! } : {}),
      ...(old ? { compared: { stats: stats.get(old)!, roundRatios: rounds.map((round) => newOldOf(round, servers)), roundCpuRatios: rounds.map((round) => oldNewCpuOf(round, servers)) } } : {}),
      ...(scenario.urls ? { longTail: await longTailFigures(scenario, cursorOf(scenario, gateway), gateway, old) } : {}),
      ...(iconify && scenario.iconify ? { iconify: { stats: stats.get(iconify)!, roundRatios: rounds.map((round) => rps(round, gateway) / Math.max(1, rps(round, iconify))) } } : {}),
    };
    results.push(result);
    logScenarioResult(result, `[${index + 1}/${list.length}]`);
  }
  return results;
}

/** After a long-tail scenario's rounds: the gateways' memory, and how far the gateway got through the list. */
async function longTailFigures(scenario: Scenario, cursor: UrlCursor, gateway: ServerChild, old: ServerChild | undefined): Promise<LongTailFigures> {
  const memory = await processMemory(gateway.pid);
  const oldMemory = old && (await processMemory(old.pid));
  if (cursor.wraps) log(`        note: the gateway used up the ${formatInt(scenario.urls!.size)} URLs of ${scenario.label} ${cursor.wraps} times: URLs repeated (see its X-Cache hits)`);
  return { urlsTaken: cursor.taken, wraps: cursor.wraps, ...(memory && { memory }), ...(oldMemory && { oldMemory }) };
}

/** Start time and resident memory of a gateway after the run, for the report and the goals. */
async function gatewayFigures(server: ServerChild): Promise<GatewayFigures & { line: string }> {
  const memory = await processMemory(server.pid);
  const readyIn = /ready ([\d.]+ s) after the process started/.exec(server.readyLine)?.[1];
  const line =
    `start-to-serving ${(server.readyMs / 1000).toFixed(1)} s from spawn` +
    (readyIn ? ` (${readyIn} by its own clock)` : '') +
    (memory ? `; resident memory after the run ${formatInt(memory.rssKb / 1024)} MB (VmRSS), peak ${formatInt(memory.peakKb / 1024)} MB (VmHWM)` : '; memory: /proc not readable');
  return { line, rssMb: memory ? memory.rssKb / 1024 : undefined, startSeconds: server.readyMs / 1000 };
}

function profileDescription(): string {
  if (embedded) return `embedded PGlite (${rel(PGLITE_DIR)}), rate limits in process memory`;
  return (
    `PostgreSQL (${redactUrl(databaseUrl!)})` +
    (redisUrl
      ? ` + Redis (${redactUrl(redisUrl)})`
      : process.env.REDIS_CLUSTER_NODES
        ? ` + Redis Cluster (${process.env.REDIS_CLUSTER_NODES.split(',').length} nodes)`
        : ', no REDIS_URL: rate limits in process memory')
  );
}

/** The long-tail scenarios selected, their URL lists generated from the vocabulary of the database the gateway will serve. */
async function prepareLongTail(): Promise<Scenario[]> {
  if (!LONG_TAIL_IDS.some(wanted)) return [];
  log('Reading the catalogue vocabulary for the long-tail scenarios...');
  const started = performance.now();
  const vocabulary = await readVocabulary(databaseSource);
  // Read only here: on the full catalogue the Iconify API's files are some 460 MB of JSON.
  const iconifyIcons = iconifyDir ? iconifyApiIcons(iconifyDir) : undefined;
  const { scenarios, notes } = longTailScenarios(vocabulary, { ...longTailSettings, iconifyIcons }, wanted);
  log(`  read and generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const note of notes) log(`  ${note}`);
  longTailNotes.push(...notes);
  return scenarios;
}

/** How the long-tail lists came out, for bench/RESULTS.md. */
const longTailNotes: string[] = [];

async function main(): Promise<number> {
  await mkdir(OUT_DIR, { recursive: true });
  const compareTarget = compareRef ? resolveCompareTarget(compareRef, OUT_DIR) : undefined;
  if (compareTarget) await mkdir(compareTarget.dir, { recursive: true });
  // The servers' logs hold this run only (the gateway's has a line per request).
  await Promise.all([GATEWAY_LOG, PLAIN_LOG, BODY_ONLY_LOG, ...(compareTarget ? [compareTarget.logFile] : []), ...(iconifyDir ? [ICONIFY_LOG] : [])].map((file) => writeFile(file, '')));
  const runStarted = new Date();
  const machine = machineDescription();
  const profile = profileDescription();
  log(`Benchmark: ${SETTINGS_TEXT}`);
  log(`Machine: ${machine}`);
  log(`Profile: ${profile}`);
  const comparedAs = compareTarget && `new = ${describeThisCheckout()}; old = ${describeTarget(compareTarget)}`;
  if (comparedAs) log(`Compared: ${comparedAs}`);

  // What `npm start` runs: the gateway bundled by scripts/build-gateway.mjs, in plain Node.
  await buildGateway();
  const comparedBuild = compareTarget && (await prepareCompared(compareTarget));
  if (embedded) await bootstrapEmbedded();
  const leftovers = await foldLeftoverDownloads(databaseSource);
  log(`Downloads: ${leftovers.line}`);
  const tableHealth = await readTableHealth(databaseSource);
  log(`Database: ${tableHealth.line}`);
  if (tableHealth.worn) log('  note: dead rows are over a fifth of the live ones; run VACUUM (ANALYZE) icons, icon_search_documents before comparing with other runs');
  const longTail = await prepareLongTail();
  if (!compareTarget && longTail.some((scenario) => scenario.anonymous)) {
    anonymousCallers = true;
    await writeAnonymousConfig(join(BENCH_DIR, '..', '.meshrc.yaml'), ANONYMOUS_CONFIG_DIR, ANONYMOUS_HOURLY_LIMIT);
    const note = `Iconify's protocol: anonymous callers (no key), counted per address; the bench's copy of .meshrc.yaml (${rel(ANONYMOUS_CONFIG_DIR)}) gives 127.0.0.1 and ::1 an anonymous limit of ${formatInt(ANONYMOUS_HOURLY_LIMIT)} an hour (rate-limit's anonymousAddressLimits)`;
    log(note);
    longTailNotes.push(note);
  }

  const scenarioCount = cachedScenarios(DEFAULT_ICON, '/svg').length + longTail.length;
  const gatewayCount = compareTarget ? 2 : 1; // one key for both: with Redis they share its hourly count
  const requestsNeeded = Math.ceil(gatewayCount * scenarioCount * settings.rounds * (settings.seconds + settings.warmupSeconds) * MAX_EXPECTED_GATEWAY_RPS) + 1_000;
  const { gateway, key } = await startGatewayWithKey(requestsNeeded, compareTarget);
  const old = compareTarget && comparedBuild ? await startComparedGateway(compareTarget, comparedBuild, key, requestsNeeded) : undefined;

  const { list, captured } = await captureScenarios(gateway, key, longTail);
  if (old) await checkComparedAnswers(gateway, old, list, captured, key);
  const catalogue = await catalogueSize(gateway, key);
  const plainServers = await startPlainServers(list, captured, key);
  const iconify = await startIconifyBeside(list);
  await settleGateways([gateway, ...(old ? [old] : [])]);
  const results = await measureScenarios({ gateway, ...(old ? { old } : {}), ...plainServers, ...(iconify ? { iconify } : {}) }, list, captured, key);

  const figures = await gatewayFigures(gateway);
  const oldFigures = old && (await gatewayFigures(old));
  const iconifyMemory = iconify && (await processMemory(iconify.pid));
  const iconifyLine = iconify && iconifyMemoryLine(iconifyMemory, figures.rssMb);
  const loadAtEnd = loadavg().map((value) => value.toFixed(2)).join(' ');
  const isDemoCatalogue = embedded || catalogue.icons < 100_000;
  const goals = [...evaluateGoals(results, isDemoCatalogue, figures), ...longTailGoals(results, isDemoCatalogue)];
  if (iconifyMemory && figures.rssMb !== undefined) {
    const theirs = iconifyMemory.rssKb / 1024;
    goals.push({
      text: `gateway resident memory after the runs at most ${ICONIFY_MEMORY_RATIO_GOAL}x the Iconify API's (full catalogue)`,
      met: figures.rssMb <= ICONIFY_MEMORY_RATIO_GOAL * theirs,
      detail: `${formatInt(figures.rssMb)} MB against ${formatInt(theirs)} MB (${formatRatio(figures.rssMb / theirs)}x)`,
      informational: isDemoCatalogue,
    });
  }
  const problems = findProblems(results);
  const context: RunContext = {
    date: runStarted,
    command: commandLine(),
    settings: SETTINGS_TEXT,
    machine: `${machine}, at the end ${loadAtEnd}`,
    profile,
    catalogue: `${formatInt(catalogue.icons)} published icons, ${formatInt(catalogue.categories)} categories${isDemoCatalogue ? ' (demo-sized)' : ''}; ${leftovers.line}; ${tableHealth.line}`,
    isDemoCatalogue,
    gateway: figures.line,
    ...(longTailNotes.length ? { longTail: longTailNotes } : {}),
    ...(comparedAs && oldFigures && comparedBuild ? { compared: `${comparedAs}; old gateway: ${oldFigures.line}; its node_modules: ${comparedBuild.dependencies}` } : {}),
    ...(iconifyLine ? { iconify: iconifyLine } : {}),
  };

  log();
  log(resultsTable(results));
  if (longTailTable(results)) {
    log();
    log(longTailTable(results));
  }
  if (comparedAs) {
    log();
    log(`New/old (${comparedAs}):`);
    log(comparisonTable(results));
    log(comparisonVerdict(results));
  }
  log();
  log(`Gateway: ${figures.line}`);
  if (oldFigures) log(`Old gateway: ${oldFigures.line}`);
  if (iconifyLine) log(`Iconify API: ${iconifyLine}`);
  log(`Catalogue: ${context.catalogue}`);
  log();
  log(problems.lines.length ? 'Goals (issues 5 and 12; NOT VALID: the run had errors):' : 'Goals (issues 5 and 12):');
  for (const line of goalLines(goals)) log(line);
  if (problems.lines.length) {
    log();
    console.error(errorBanner(problems));
  }
  await appendResults(RESULTS_FILE, context, results, goals, problems);
  log();
  log(`Appended to ${rel(RESULTS_FILE)}.`);
  return problems.lines.length ? 1 : 0;
}

/** The Iconify API (BENCH_ICONIFY_API), started and checked on each scenario it has an equivalent of; undefined without it or them. */
async function startIconifyBeside(list: Scenario[]): Promise<ServerChild | undefined> {
  const scenarios = list.filter((scenario) => scenario.iconify);
  if (!iconifyDir || !scenarios.length) return undefined;
  log(`Starting the Iconify API of ${iconifyDir} (it loads every icon set first, about a minute)...`);
  const server = await startIconifyApi(iconifyDir, ICONIFY_LOG);
  log(servingLine(server, ICONIFY_LOG));
  for (const scenario of scenarios) {
    const fetched = await get(server.url, scenario.iconify!.path);
    const body = json(fetched);
    log(`  ${String(fetched.status)} ${scenario.label} on the Iconify API: ${formatInt(fetched.body.length)} bytes (representative: ${scenario.iconify!.path})`);
    const svg = scenario.iconify!.path.split('?')[0]!.endsWith('.svg') && fetched.body.toString('utf8').startsWith('<svg');
    if (fetched.status !== 200 || !(svg || isObject(body))) throw new Error(`the Iconify API answered ${scenario.iconify!.path} with ${fetched.status}: ${fetched.body.toString('utf8').slice(0, 300)}`);
  }
  return server;
}

/** The Iconify API's resident memory after the run, and the gateway's over it. */
function iconifyMemoryLine(memory: Awaited<ReturnType<typeof processMemory>>, gatewayRssMb: number | undefined): string {
  if (!memory) return 'memory: /proc not readable';
  const rssMb = memory.rssKb / 1024;
  const ratio = gatewayRssMb === undefined ? '' : `; the gateway's over it ${formatRatio(gatewayRssMb / rssMb)} (goal: at most ${ICONIFY_MEMORY_RATIO_GOAL})`;
  return `resident memory after the run ${formatInt(rssMb)} MB (VmRSS), peak ${formatInt(memory.peakKb / 1024)} MB (VmHWM)${ratio}`;
}

/** Measuring starts once the gateways' start-up work (list index, search vocabulary) is done (bench/settle.ts). */
async function settleGateways(gateways: ServerChild[]): Promise<void> {
  log('Waiting until the gateways are quiet (their list index and vocabulary read)...');
  const waited = await waitUntilQuiet(
    gateways.map((server) => server.pid),
    databaseUrl,
    SETTLE_TIMEOUT_MS,
  );
  log(waited === undefined ? `  still busy after ${SETTLE_TIMEOUT_MS / 1000} s: measuring anyway` : `  quiet after ${waited.toFixed(1)} s`);
}

async function stopChildren(): Promise<void> {
  await Promise.allSettled(runningChildren().map((child) => child.stop()));
  if (cpuProfile) log(`CPU profiles of the gateway: ${rel(PROFILE_DIR)}/ (npx tsx bench/profile-summary.ts <file>)`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping the servers`);
    void stopChildren().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbench failed: ${(error as Error).message}`);
  if (process.env.DEBUG) console.error((error as Error).stack);
} finally {
  if (!interrupted) await stopChildren();
}
process.exit(exitCode);
