// The operator CLI against a real embedded database: keys are printed once and stored only as
// digests, revocation takes effect, bad arguments get usage and exit 2, and a second process
// cannot open a PGlite directory that another one holds.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/commands.ts';
import { checkApiKey, digestKey, findApiKeyRecord, publicIdOf } from '../../prisma/accounts/api-keys.ts';
import { openDatabase } from '../../prisma/database.ts';
import { createPostgresDatabase, postgresUnavailable } from '../helpers/databases.ts';

let dataDir: string;
const pgSkip = await postgresUnavailable();
const savedEnv = { ...process.env };

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line), isTTY: false, stderr: undefined });
  return { code, out, err: err.join('\n') };
}

/** The key's record if the key is well formed, known, matches its digest and is not revoked (as the gateway checks it). */
async function verifyApiKey(prisma: Awaited<ReturnType<typeof openDatabase>>['prisma'], presented: string) {
  const publicId = publicIdOf(presented);
  return publicId ? checkApiKey(await findApiKeyRecord(prisma, publicId), presented) : undefined;
}

async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ dataDir });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'icon-cli-')), 'pglite');
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DATA_DIR = dataDir;
});
afterAll(async () => {
  process.env = savedEnv;
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

describe('keys', () => {
  it('creates a key, prints it alone on the last line, and stores only its digest', async () => {
    const { code, out } = await cli('keys', 'create', '--account', 'acme', '--limit', '5');
    expect(code).toBe(0);
    const key = out.at(-1)!;
    expect(key).toMatch(/^ick_[a-z0-9]{10}_[A-Za-z0-9]{32}$/);
    await withDb(async (db) => {
      const verified = await verifyApiKey(db.prisma, key);
      expect(verified).toMatchObject({ hourlyLimit: 5 });
      const [row] = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM api_keys`);
      expect(row!.secret_hash).toBe(digestKey(key));
      const secret = key.split('_')[2]!;
      for (const value of Object.values(row!)) expect(String(value)).not.toContain(secret);
      expect(await verifyApiKey(db.prisma, key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    });
    const listing = await cli('keys', 'list');
    expect(listing.code).toBe(0);
    expect(listing.out.join('\n')).toContain(key.split('_')[1]);
    expect(listing.out.join('\n')).not.toContain(key.split('_')[2]);
  });

  it('revokes a key by its public id, with effect on the next verification', async () => {
    const key = (await cli('keys', 'create', '--account', 'revoker')).out.at(-1)!;
    const publicId = key.split('_')[1]!;
    await withDb(async (db) => expect(await verifyApiKey(db.prisma, key)).toBeDefined());
    expect((await cli('keys', 'revoke', publicId)).code).toBe(0);
    await withDb(async (db) => expect(await verifyApiKey(db.prisma, key)).toBeUndefined());
    expect((await cli('keys', 'revoke', publicId)).out.join()).toContain('already revoked');
    const unknown = await cli('keys', 'revoke', 'nosuchkey0');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No key with id "nosuchkey0"');
  });

  it.each([
    [['keys', 'create'], 'needs --account'],
    [['keys', 'create', '--account', 'a', '--limit', '0'], '--limit must be a whole number'],
    [['keys', 'create', '--account', 'a', '--limit', 'lots'], '--limit must be a whole number'],
    [['keys', 'create', '--account', 'a', '--bogus'], "Unknown option '--bogus'"],
    [['keys', 'explode'], 'Unknown keys action'],
    [['keys', 'revoke'], 'exactly one <key id>'],
    [['grant', 'logos-react'], 'needs --account'],
    [['grant', '--account', 'a'], 'at least one <icon id or slug>'],
    [['import', 'extra'], 'takes no arguments'],
    [['frobnicate'], 'Unknown command "frobnicate"'],
  ])('%j gets a usage message and exit code 2', async (argv, message) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('Usage: icon-catalogue');
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe('grant', () => {
  it('grants premium icons by slug and by id, and reports unknown ones with exit 1', async () => {
    expect((await cli('import', '--set', 'logos')).code).toBe(0);
    const ids = await withDb(async (db) => {
      await db.prisma.icon.updateMany({ where: { slug: { in: ['logos-react', 'logos-vue'] } }, data: { premium: true } });
      return db.prisma.icon.findMany({ where: { slug: { in: ['logos-react', 'logos-vue'] } }, select: { id: true, slug: true } });
    });
    const vue = ids.find((icon) => icon.slug === 'logos-vue')!;
    const result = await cli('grant', '--account', 'owner', 'logos-react', String(vue.id), 'no-such-icon');
    expect(result.code).toBe(1);
    expect(result.err).toContain('Unknown icon: no-such-icon');
    const owned = await withDb((db) =>
      db.prisma.ownership.findMany({ where: { account: { name: 'owner' } }, select: { icon: { select: { slug: true } } } }),
    );
    expect(owned.map((row) => row.icon.slug).sort()).toEqual(['logos-react', 'logos-vue']);
  });
});

describe('the embedded data directory', () => {
  it('refuses a second process at once, naming the holder, and admits it once released', async () => {
    const db = await openDatabase({ dataDir });
    const startedAt = Date.now();
    let second: { code: number | null; stderr: string };
    try {
      second = await runChild(['cli/main.ts', 'migrate']);
    } finally {
      await db.close();
    }
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`is in use by process ${process.pid}`);
    expect(second.stderr).not.toMatch(/\n\s+at /);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const third = await runChild(['cli/main.ts', 'migrate']);
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
  });
});

describe('a finished command', () => {
  // The WASM schema engine (migrations run before every command) used to leave a 10 s timer
  // behind, so every command sat idle for 10 s after printing its result.
  const lingering = async (env: Record<string, string>) => {
    const result = await runChild(['cli/main.ts', 'keys', 'list'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No keys\.|KEY ID/);
    return result.lingeredMs;
  };

  it('exits at once after its output on the embedded database', async () => {
    expect(await lingering({})).toBeLessThan(3_000);
  });

  it.skipIf(pgSkip)('exits at once after its output on PostgreSQL', async () => {
    const database = await createPostgresDatabase();
    try {
      expect(await lingering({ DATABASE_URL: database.url! })).toBeLessThan(3_000);
    } finally {
      await database.drop();
    }
  });
});

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the last output to the exit. */
  lingeredMs: number;
}

function runChild(args: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, PGLITE_DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let lastOutput = Date.now();
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      lastOutput = Date.now();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      lastOutput = Date.now();
    });
    child.on('exit', () => {
      const lingeredMs = Date.now() - lastOutput;
      child.on('close', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim(), lingeredMs }));
    });
  });
}
