// The commands of the operator CLI, as a function of argv so tests can drive it in-process.
// Works on the server's database: DATABASE_URL, or the embedded data directory when no
// server holds it.
import { writeFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { publishRevocations } from '../gateway/key-revocations.ts';
import { createApiKey, listApiKeys, publicIdOf, revokeApiKey } from '../prisma/accounts/api-keys.ts';
import { grantIcons, grantSet, revokeIcons, revokeSet } from '../prisma/accounts/ownership.ts';
import { createInvitation, disableAccount, enableAccount } from '../prisma/accounts/portal.ts';
import { databaseOptionsFromEnv, openDatabase, type Database } from '../prisma/database.ts';
import { applyMigrations } from '../prisma/engine/migrations.ts';
import { PREFIX_PATTERN } from '../prisma/import/catalogue-config.ts';
import { importCatalogue, importSource } from '../prisma/import/demo-catalogue.ts';
import { exportSet } from '../prisma/import/export-set.ts';
import type { ImportSummary } from '../prisma/import/import-sets.ts';
import { createProgressReporter, formatSummary } from '../prisma/import/progress.ts';

export const USAGE = `Usage: icon-catalogue <command> [options]

Commands:
  import [--all] [--force] [--set <prefix>]... [--dry-run] [--strict]
                      Import the icon sets of prisma/catalogue.yaml (each from its source),
                      or with --all every set of @iconify/json. Unchanged sets are skipped;
                      --force re-maps them (rows are only written where something changed).
                      Search data left behind by an interrupted import is rebuilt.
  import --source <folder or .json file> --prefix <prefix> [--name <set name>]
         [--license <SPDX id>] [--premium] [--dry-run] [--strict] [--force]
                      Import one set: a folder of SVG files (cleaned; bad files are reported
                      and left out) or an IconifyJSON file. A re-import applies the difference:
                      changed icons get a new body, removed ones are unpublished.
                      --dry-run prints what would be added, changed, removed and rejected
                      (icons and aliases) and writes nothing; --strict fails (exit 1, nothing
                      written) if any file was rejected. Exit 1 also when no icon could be
                      imported.
  export --set <prefix> [--out <file>]
                      Write a set as IconifyJSON (to stdout without --out).
  keys create --account <name> [--limit <requests per hour>]
                      Create an API key (and the account if needed). The key is printed once,
                      alone on the last line, and stored only as a hash.
  keys list           List keys by public id (keys themselves are never shown).
  keys revoke <key id>
                      Revoke a key by its public id; it stops working at once.
  grant --account <name> <icon id or slug>...
  grant --account <name> --set <prefix>
                      Give an account ownership of premium icons, or of a whole set (icons
                      later imports add to the set included).
  revoke --account <name> <icon id or slug>...
  revoke --account <name> --set <prefix>
                      Take ownership back.
  accounts invite --email <address> [--days <valid days, default 7>]
                      Invite someone to the account portal (when its sign-ups are by
                      invitation). The code is printed once, alone on the last line.
  accounts disable --account <name>
                      Disable an account: every key of it is revoked, its portal sessions end
                      and it can no longer sign in. (Portal accounts are named by their email.)
  accounts enable --account <name>
                      Let a disabled account sign in again (its revoked keys stay revoked).
  migrate             Apply pending database migrations.
  help                Show this message.

Database: DATABASE_URL (postgresql://...), else the embedded PGlite directory .data/pglite
(PGLITE_DATA_DIR overrides it).`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that has said what went wrong itself and only sets the exit code. */
class ExitError extends Error {
  override name = 'ExitError';
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * Prints each set's rejected files (one line each: file and reason) and other warnings, and what was (or, a dry
 * run, would be) added, changed, removed and renamed; returns the exit code: 1 when a set had
 * nothing to import or --strict refused it, else 0 (rejections are warnings).
 */
function reportImport(summary: ImportSummary, io: Io, { dryRun, strict }: { dryRun: boolean; strict: boolean }): number {
  let failed = false;
  for (const set of summary.sets) {
    for (const rejection of set.rejected) io.err(`warning: ${set.prefix}: rejected ${rejection.file}: ${rejection.reason}`);
    for (const warning of set.warnings) io.err(`warning: ${set.prefix}: ${warning}`);
    if (set.plan) {
      const { added, changed, removed, renamed } = set.plan;
      const verb = dryRun ? 'would be' : 'were';
      io.out(`${set.prefix}: ${added.length} ${verb} added, ${changed.length} changed, ${removed.length} removed, ${renamed.length} renamed, ${set.rejected.length} rejected`);
      const list = (label: string, names: string[]) => names.length && io.out(`  ${label}: ${names.join(', ')}`);
      list('added', set.plan.added);
      list('changed', changed);
      list('removed', removed);
      list('renamed', renamed.map(([from, to]) => `${from} -> ${to}`));
      list('rejected', set.rejected.map((rejection) => rejection.file));
      const aliases = set.plan.aliases;
      if (aliases.added.length + aliases.changed.length + aliases.removed.length > 0) {
        io.out(`  aliases: ${aliases.added.length} ${verb} added, ${aliases.changed.length} changed, ${aliases.removed.length} removed`);
        list('aliases added', aliases.added);
        list('aliases changed', aliases.changed);
        list('aliases removed', aliases.removed);
      }
    }
    if (set.status === 'empty') {
      io.err(`error: ${set.prefix}: nothing could be imported${set.rejected.length ? ` (${set.rejected.length} files rejected)` : ''}; the set is left as it was`);
      failed = true;
    } else if (set.status === 'refused') {
      io.err(`error: ${set.prefix}: --strict and ${set.rejected.length} files rejected: nothing written`);
      failed = true;
    }
  }
  if (!dryRun) io.out(formatSummary(summary));
  else io.out('Dry run: nothing was written.');
  if (strict && summary.sets.some((set) => set.rejected.length > 0)) failed = true;
  return failed ? 1 : 0;
}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  isTTY: boolean;
  stderr: NodeJS.WriteStream | undefined;
}

type Command = (args: string[], io: Io) => Promise<void>;

/** One warning line when running gateways could not be told of a revocation (they forget the key within keyCacheSeconds). */
function warnUntold(io: Io, failure: string | undefined): void {
  if (failure) io.err(`warning: running gateways could not be told through Redis (${failure}); they stop accepting the key within keyCacheSeconds`);
}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(databaseOptionsFromEnv());
  try {
    await applyMigrations(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

const commands: Record<string, Command> = {
  async import(args, io) {
    const { values, positionals } = parse(
      args,
      {
        all: { type: 'boolean' },
        force: { type: 'boolean' },
        set: { type: 'string', multiple: true },
        source: { type: 'string' },
        prefix: { type: 'string' },
        name: { type: 'string' },
        license: { type: 'string' },
        premium: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        strict: { type: 'boolean' },
      },
      true,
    );
    if (positionals.length) throw new UsageError(`import takes no arguments (got "${positionals[0]}")`);
    const dryRun = values['dry-run'] ?? false;
    const strict = values.strict ?? false;
    if (values.source === undefined) {
      for (const flag of ['prefix', 'name', 'license', 'premium'] as const) {
        if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --source`);
      }
    } else {
      if (values.all || values.set) throw new UsageError('--source imports one set: it does not go with --all or --set');
      if (!values.prefix) throw new UsageError('import --source needs --prefix <prefix>');
      if (!PREFIX_PATTERN.test(values.prefix)) throw new UsageError(`--prefix must be an Iconify prefix such as "acme" or "acme-line" (got "${values.prefix}")`);
      if (values.license !== undefined && !/^[A-Za-z0-9.+-]+$/.test(values.license)) throw new UsageError(`--license must be an SPDX id such as "MIT" (got "${values.license}")`);
    }
    const exitCode = await withDatabase(async (db) => {
      io.out(`${dryRun ? 'Dry run (nothing is written) on' : 'Importing into'} ${db.location}`);
      const progress = createProgressReporter(io.isTTY ? io.stderr : undefined, io.out);
      const summary =
        values.source === undefined
          ? await importCatalogue(db.prisma, {
              all: values.all ?? false,
              force: values.force ?? false,
              only: values.set ?? [],
              dryRun,
              strict,
              onEvent: progress,
              log: io.out,
            })
          : await importSource(db.prisma, {
              source: values.source,
              prefix: values.prefix!,
              ...(values.name ? { name: values.name } : {}),
              ...(values.license ? { license: values.license } : {}),
              premium: values.premium ?? false,
              force: values.force ?? false,
              dryRun,
              strict,
              onEvent: progress,
            });
      return reportImport(summary, io, { dryRun, strict });
    });
    if (exitCode !== 0) throw new ExitError(exitCode);
  },

  async export(args, io) {
    const { values, positionals } = parse(args, { set: { type: 'string' }, out: { type: 'string' } }, true);
    if (positionals.length) throw new UsageError(`export takes no arguments (got "${positionals[0]}")`);
    if (!values.set) throw new UsageError('export needs --set <prefix>');
    await withDatabase(async (db) => {
      const json = await exportSet(db.prisma, values.set!);
      const text = `${JSON.stringify(json, null, 2)}\n`;
      if (values.out) {
        await writeFile(values.out, text);
        io.err(`Wrote ${Object.keys(json.icons).length} icons of "${values.set}" to ${values.out}`);
      } else {
        io.out(text.trimEnd());
      }
    });
  },

  async keys(args, io) {
    const [action, ...rest] = args;
    if (action === 'create') {
      const { values, positionals } = parse(rest, { account: { type: 'string' }, limit: { type: 'string' } }, true);
      if (positionals.length) throw new UsageError(`keys create takes no arguments (got "${positionals[0]}")`);
      const account = values.account?.trim();
      if (!account) throw new UsageError('keys create needs --account <name>');
      const limit = values.limit === undefined ? null : parsePositiveInteger(values.limit, '--limit');
      await withDatabase(async (db) => {
        const created = await createApiKey(db.prisma, { accountName: account, hourlyLimit: limit });
        io.out(`Created key ${created.publicId} for account "${created.accountName}"${limit ? ` (limit ${limit} per hour)` : ''}`);
        io.out('Store it now: it is not shown again and cannot be recovered.');
        io.out(created.key);
      });
    } else if (action === 'list') {
      if (rest.length) throw new UsageError('keys list takes no arguments');
      await withDatabase(async (db) => {
        const keys = await listApiKeys(db.prisma);
        if (keys.length === 0) return io.out('No keys.');
        io.out(['KEY ID', 'ACCOUNT', 'LIMIT/H', 'CREATED', 'LAST USED', 'STATUS'].join('\t'));
        for (const key of keys) {
          io.out(
            [
              key.publicId,
              key.account,
              key.hourlyLimit ?? 'default',
              key.createdAt.toISOString(),
              key.lastUsedAt?.toISOString() ?? '-',
              key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active',
            ].join('\t'),
          );
        }
      });
    } else if (action === 'revoke') {
      const { positionals } = parse(rest, {}, true);
      if (positionals.length !== 1) throw new UsageError('keys revoke needs exactly one <key id>');
      await withDatabase(async (db) => {
        const outcome = await revokeApiKey(db.prisma, positionals[0]!);
        if (outcome === 'unknown') throw new UsageError(`No key with id "${positionals[0]}" (see: keys list)`);
        // Running gateways drop it from their key caches at once (with REDIS_URL), else within keyCacheSeconds.
        if (outcome === 'revoked') warnUntold(io, await publishRevocations(process.env, [publicIdOf(positionals[0]!) ?? positionals[0]!]));
        io.out(outcome === 'revoked' ? `Revoked ${positionals[0]}.` : `${positionals[0]} was already revoked.`);
      });
    } else {
      throw new UsageError(action ? `Unknown keys action "${action}" (create, list, revoke)` : 'keys needs an action: create, list or revoke');
    }
  },

  async accounts(args, io) {
    const [action, ...rest] = args;
    if (action === 'invite') {
      const { values, positionals } = parse(rest, { email: { type: 'string' }, days: { type: 'string' } }, true);
      if (positionals.length) throw new UsageError(`accounts invite takes no arguments (got "${positionals[0]}")`);
      const email = values.email?.trim();
      if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError('accounts invite needs --email <address>');
      const days = values.days === undefined ? 7 : parsePositiveInteger(values.days, '--days');
      await withDatabase(async (db) => {
        const { code, expiresAt } = await createInvitation(db.prisma, email, days);
        io.out(`Invited ${email.toLowerCase()} until ${expiresAt.toISOString()}. They sign up on the portal with this code`);
        io.out('(or at <portal>/sign-up?invitation=<code>); it is not shown again:');
        io.out(code);
      });
    } else if (action === 'disable' || action === 'enable') {
      const { values, positionals } = parse(rest, { account: { type: 'string' } }, true);
      if (positionals.length) throw new UsageError(`accounts ${action} takes no arguments (got "${positionals[0]}")`);
      const account = values.account?.trim();
      if (!account) throw new UsageError(`accounts ${action} needs --account <name>`);
      await withDatabase(async (db) => {
        if (action === 'enable') {
          if (!(await enableAccount(db.prisma, account))) throw new UsageError(`No account "${account}"`);
          return io.out(`Enabled "${account}": it can sign in again; its revoked keys stay revoked.`);
        }
        const disabled = await disableAccount(db.prisma, account);
        if (!disabled) throw new UsageError(`No account "${account}"`);
        warnUntold(io, await publishRevocations(process.env, disabled.revokedKeys));
        io.out(`Disabled "${account}": ${disabled.revokedKeys.length} key(s) revoked${disabled.revokedKeys.length ? ` (${disabled.revokedKeys.join(', ')})` : ''}, its sessions ended.`);
      });
    } else {
      throw new UsageError(action ? `Unknown accounts action "${action}" (invite, disable, enable)` : 'accounts needs an action: invite, disable or enable');
    }
  },

  async grant(args, io) {
    const { values, positionals } = parse(args, { account: { type: 'string' }, set: { type: 'string' } }, true);
    const account = values.account?.trim();
    if (!account) throw new UsageError('grant needs --account <name>');
    if (values.set !== undefined) {
      if (positionals.length) throw new UsageError('grant --set takes no icon ids or slugs');
      await withDatabase(async (db) => {
        const result = await grantSet(db.prisma, account, values.set!);
        io.out(`Granted the set "${values.set}" to "${result.account}": ${result.icons} icons newly owned; icons later imports add to it are included.`);
      });
      return;
    }
    if (positionals.length === 0) throw new UsageError('grant needs at least one <icon id or slug>, or --set <prefix>');
    await withDatabase(async (db) => {
      const result = await grantIcons(db.prisma, account, positionals);
      for (const icon of result.granted) {
        io.out(`Granted ${icon.slug} (id ${icon.id}) to "${result.account}"${icon.premium ? '' : ' (note: a free icon)'}`);
      }
      for (const slug of result.alreadyOwned) io.out(`"${result.account}" already owns ${slug}`);
      if (result.unknown.length) throw new Error(`Unknown icon${result.unknown.length > 1 ? 's' : ''}: ${result.unknown.join(', ')}`);
    });
  },

  async revoke(args, io) {
    const { values, positionals } = parse(args, { account: { type: 'string' }, set: { type: 'string' } }, true);
    const account = values.account?.trim();
    if (!account) throw new UsageError('revoke needs --account <name>');
    if (values.set !== undefined) {
      if (positionals.length) throw new UsageError('revoke --set takes no icon ids or slugs');
      await withDatabase(async (db) => {
        const result = await revokeSet(db.prisma, account, values.set!);
        io.out(`Revoked the set "${values.set}" from "${account}": ${result.icons} icons no longer owned${result.hadGrant ? '' : ' (it had no set grant)'}.`);
      });
      return;
    }
    if (positionals.length === 0) throw new UsageError('revoke needs at least one <icon id or slug>, or --set <prefix>');
    await withDatabase(async (db) => {
      const result = await revokeIcons(db.prisma, account, positionals);
      for (const slug of result.revoked) io.out(`Revoked ${slug} from "${account}"`);
      if (result.notOwned.length) io.out(`"${account}" did not own: ${result.notOwned.join(', ')}`);
    });
  },

  async migrate(args, io) {
    if (args.length) throw new UsageError('migrate takes no arguments');
    const db = await openDatabase(databaseOptionsFromEnv());
    try {
      const applied = await applyMigrations(db);
      io.out(applied.length ? `Applied: ${applied.join(', ')}` : `${db.location} is up to date.`);
    } finally {
      await db.close();
    }
  },

  async help(_args, io) {
    io.out(USAGE);
  },
};

function parsePositiveInteger(text: string, name: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${name} must be a whole number of at least 1 (got "${text}")`);
  }
  return Number(text);
}

/** Runs one command; returns the exit code. Never lets a stack trace reach the operator. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  try {
    if (!command) throw new UsageError(`Unknown command "${name}"`);
    await command(args, io);
    return 0;
  } catch (error) {
    if (error instanceof ExitError) return error.code;
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`error: ${(error as Error).message ?? String(error)}`);
    if (process.env.DEBUG) io.err((error as Error).stack ?? '');
    return 1;
  }
}
