// The gateway of another commit, measured beside this checkout's (`BENCH_COMPARE_REF=<git ref>`):
// a git worktree of that commit under bench/out/compare-<sha>/, with this project's node_modules
// when both package-lock.json files are the same (else its own, from `npm ci`), its generated
// Prisma client, and its bundle built by its own scripts/build-gateway.mjs, started the way its
// own package.json's start script runs it.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { cp, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { parseStartCommand, type StartCommand } from '../lib/start-command.ts';
import { mustSucceed, runCommand } from './children.ts';

export interface CompareTarget {
  /** As given in BENCH_COMPARE_REF. */
  ref: string;
  sha: string;
  /** The commit's first line. */
  subject: string;
  /** bench/out/compare-<sha>/: the checkout, its gateway's log, its copy of the bench data. */
  dir: string;
  /**
   * The git worktree, in a dot folder: tsconfig.json includes "bench/**\/*.ts", and TypeScript's
   * `**` passes over folders whose names start with a dot (and node_modules), not others: in
   * bench/out/compare-<sha>/ itself, `tsc --noEmit` would check the other commit's sources too.
   */
  checkout: string;
  logFile: string;
  /** Its copy of the bench's PGlite directory (two processes must never open one). */
  pgliteDir: string;
}

export interface ComparedBuild {
  /** Where its node_modules comes from, for the report. */
  dependencies: string;
  /** The `node` flags of its start script. */
  nodeArgs: string[];
  /** The `NAME=value` settings its start script puts before `node`. */
  env: Record<string, string>;
  /** The file its start script runs, relative to the checkout. */
  bundle: string;
}

const PROJECT_NODE_MODULES = join(PROJECT_ROOT, 'node_modules');
const SHA_DIGITS = 12;

function git(args: string[], cwd = PROJECT_ROOT): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

/** Tracked files changed in a checkout (read without taking git's index lock). */
const changedFiles = (cwd: string) => git(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=no'], cwd);

export function resolveCompareTarget(ref: string, outDir: string): CompareTarget {
  let sha: string;
  try {
    sha = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`BENCH_COMPARE_REF=${ref} does not name a commit of this repository`);
  }
  const dir = join(outDir, `compare-${sha.slice(0, SHA_DIGITS)}`);
  return {
    ref,
    sha,
    subject: git(['log', '-1', '--format=%s', sha]),
    dir,
    checkout: join(dir, '.checkout'),
    logFile: join(dir, 'gateway.log'),
    pgliteDir: join(dir, 'pglite'),
  };
}

/** "HEAD~3 (1a2b3c4d5e6f: subject)", the subject cut to `width` characters. */
export function describeTarget(target: CompareTarget, width = 80): string {
  const subject = target.subject.length > width ? `${target.subject.slice(0, width - 1)}…` : target.subject;
  return `${target.ref} (${target.sha.slice(0, SHA_DIGITS)}: ${subject})`;
}

/** What "new" is: this working tree, with or without uncommitted changes. */
export function describeThisCheckout(): string {
  const head = git(['rev-parse', 'HEAD']).slice(0, SHA_DIGITS);
  return changedFiles(PROJECT_ROOT) ? `this working tree (${head} with uncommitted changes)` : `this working tree (${head})`;
}

/** Checkout, dependencies, Prisma client and bundle of the compared commit, ready to start. */
export async function prepareComparedBuild(target: CompareTarget, log: (line: string) => void): Promise<ComparedBuild> {
  ensureWorktree(target, log);
  const dependencies = await ensureDependencies(target, log);
  await ensurePrismaClient(target, log);
  const { flags: nodeArgs, bundle, env } = startCommand(target);
  const builder = 'scripts/build-gateway.mjs';
  if (!existsSync(join(target.checkout, builder))) throw new Error(`${target.ref} has no ${builder}: it predates the bundled gateway, which the bench measures`);
  log(`  building its gateway (node ${builder})`);
  await runInCheckout(target, process.execPath, [builder]);
  return { dependencies, nodeArgs, bundle, env };
}

function ensureWorktree(target: CompareTarget, log: (line: string) => void): void {
  const shown = relative(PROJECT_ROOT, target.checkout);
  if (!existsSync(target.checkout)) {
    log(`  creating the git worktree ${shown}`);
    // --force: git may still list a worktree of this path whose folder was deleted.
    git(['worktree', 'add', '--detach', '--force', target.checkout, target.sha]);
    return;
  }
  const isWorktree = git(['rev-parse', '--show-toplevel'], target.checkout) === realpathSync(target.checkout);
  if (!isWorktree || git(['rev-parse', 'HEAD'], target.checkout) !== target.sha || changedFiles(target.checkout)) {
    throw new Error(`${shown} is not an unchanged checkout of ${target.sha}: remove it (git worktree remove --force ${shown}) and run again`);
  }
  log(`  reusing the git worktree ${shown}`);
}

/**
 * This project's node_modules, linked, while both package-lock.json files are the same; else
 * its own from `npm ci` (kept: its lockfile never changes, the sha names the folder).
 */
async function ensureDependencies(target: CompareTarget, log: (line: string) => void): Promise<string> {
  const modules = join(target.checkout, 'node_modules');
  const installedMarker = join(target.dir, 'npm-ci.done');
  if (existsSync(installedMarker) && isFolder(modules)) return 'its own node_modules, installed by npm ci in an earlier run';
  if (sameFile(join(target.checkout, 'package-lock.json'), join(PROJECT_ROOT, 'package-lock.json'))) {
    if (!isLinkTo(modules, PROJECT_NODE_MODULES)) {
      await rm(modules, { recursive: true, force: true });
      await symlink(PROJECT_NODE_MODULES, modules, 'dir');
    }
    return "this project's node_modules, linked (the package-lock.json files are the same)";
  }
  log("  its package-lock.json differs from this checkout's: running npm ci in the worktree (a few minutes)");
  await rm(installedMarker, { force: true });
  await rm(modules, { recursive: true, force: true }); // a link goes, not what it points to (npm ci would empty that)
  await runInCheckout(target, 'npm', ['ci', '--no-audit', '--no-fund'], withoutNpmRunVariables(process.env));
  await writeFile(installedMarker, `${new Date().toISOString()}\n`);
  return "its own node_modules, installed by npm ci (its package-lock.json differs from this checkout's)";
}

/**
 * `npm run bench` hands npm's settings down as npm_* variables, npm_config_local_prefix among
 * them: an `npm ci` that inherited it would install into this project instead of the worktree.
 */
function withoutNpmRunVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'INIT_CWD'));
}

async function ensurePrismaClient(target: CompareTarget, log: (line: string) => void): Promise<void> {
  if (existsSync(join(target.checkout, 'prisma', 'generated', 'client.ts'))) return;
  log('  generating its Prisma client (node scripts/prisma-generate.mjs)');
  await runInCheckout(target, process.execPath, ['scripts/prisma-generate.mjs']);
}

/** The last command of its start script, `[NAME=value ...] node [--flags] <bundle>` (read as lib/start-command.ts reads this checkout's). */
function startCommand(target: CompareTarget): StartCommand {
  const packageJson = JSON.parse(readFileSync(join(target.checkout, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const start = packageJson.scripts?.start ?? '';
  const command = parseStartCommand(start);
  if (!command) throw new Error(`${target.ref}'s start script does not end with "node [flags] <bundle>.mjs": ${JSON.stringify(start)}`);
  return command;
}

/** A fresh copy of the bench's data directory for the compared gateway (taken while no process holds it). */
export async function copyDataDirectory(from: string, target: CompareTarget): Promise<void> {
  await rm(target.pgliteDir, { recursive: true, force: true });
  await cp(from, target.pgliteDir, { recursive: true });
}

async function runInCheckout(target: CompareTarget, command: string, args: string[], env = process.env): Promise<void> {
  mustSucceed(`${[command === process.execPath ? 'node' : command, ...args].join(' ')} in ${relative(PROJECT_ROOT, target.checkout)}`, await runCommand(command, args, { cwd: target.checkout, env }));
}

function isFolder(path: string): boolean {
  return existsSync(path) && lstatSync(path).isDirectory();
}

function isLinkTo(path: string, destination: string): boolean {
  return existsSync(path) && lstatSync(path).isSymbolicLink() && readlinkSync(path) === destination;
}

function sameFile(a: string, b: string): boolean {
  return existsSync(a) && existsSync(b) && readFileSync(a).equals(readFileSync(b));
}
