// The hot-read layer (prisma/reads.ts) on real databases: on PostgreSQL and on PGlite a read is
// a named prepared statement, parsed once per connection and then reused (a point lookup with a generic
// plan), with a bounded number of distinct texts, unless its plan depends on its values; on
// both drivers it runs behind the Prisma client's own QueryGuard (busy, unreachable, statement
// timeout), and its values are bound, never spliced into the SQL.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../prisma/database.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { poolReads, readTypes, type ReadOptions } from '../../prisma/reads.ts';
import { backgroundStatementTimeout } from '../../prisma/serving-limits.ts';
import { DatabaseUnavailableError } from '../../prisma/unavailable.ts';
import { ADMIN_URL, postgresUnavailable } from '../helpers/databases.ts';
import { firstAnswer, servingDatabases, servingLimits } from '../helpers/serving-databases.ts';
import { waitFor } from '../helpers/wait.ts';

const skipPostgres = Boolean(await postgresUnavailable());
const limits = servingLimits;
const { open, track, proxied } = servingDatabases();

const sleepRead = (db: Database, seconds: number) => db.reads.rows('sleep', Prisma.sql`SELECT 1 AS done FROM pg_sleep(${seconds}::float8)`);

/** How each of `count` concurrent reads ended. */
async function outcomes(reads: Promise<unknown>[]): Promise<string[]> {
  return Promise.all(reads.map((read) => read.then(
    () => 'ok',
    (error: unknown) => (error instanceof DatabaseUnavailableError ? error.reason : String(error)),
  )));
}

/** How many sessions wait for the advisory lock `key`, as `client` sees them. */
async function waitingOnLock(client: pg.Client, key: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1`, [key]);
  return rows[0]!.n;
}

/** Whether another session runs a statement whose text has `tag`, as `client` sees it. */
async function running(client: pg.Client, tag: string): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND strpos(query, $1) > 0`, [tag]);
  return rows[0]!.n > 0;
}

const HOSTILE = "x'); DROP TABLE catalogue_probe; --";

async function bindsValues(db: Database): Promise<void> {
  await db.prisma.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS catalogue_probe (id int)');
  const rows = await db.reads.rows<{ echoed: string; length: number }>('echo', Prisma.sql`SELECT ${HOSTILE}::text AS echoed, length(${HOSTILE}::text) AS length`);
  expect(rows).toEqual([{ echoed: HOSTILE, length: HOSTILE.length }]);
  expect(await db.reads.rows('probe', Prisma.sql`SELECT count(*) AS rows FROM catalogue_probe`)).toEqual([{ rows: 0 }]);
}

describe('PGlite', () => {
  it('reads rows with bound values (int8 as numbers), on the Prisma client\'s database', async () => {
    const db = await open({ dataDir: 'memory://' });
    await bindsValues(db);
    expect(await db.reads.rows('ints', Prisma.sql`SELECT ${2}::int8 * 3 AS six, ARRAY[${1}::int8, 2] AS pair`)).toEqual([{ six: 6, pair: [1, 2] }]);
  });

  it('prepares a statement once and reuses it for other values, as on a server', async () => {
    const db = await open({ dataDir: 'memory://' });
    for (const value of [1, 2, 3]) expect(await db.reads.rows('plus', Prisma.sql`SELECT ${value}::int + 1 AS next`)).toEqual([{ next: value + 1 }]);
    const prepared = await db.reads.rows<{ name: string; executions: number }>(
      'prepared',
      Prisma.sql`SELECT name, generic_plans + custom_plans AS executions FROM pg_prepared_statements WHERE statement = 'SELECT $1::int + 1 AS next'`,
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^plus_/), executions: 3 }]);
  });

  it('plans a statement read with genericPlan for its values, as planForValues: PGlite has one session, whose setting the others need', async () => {
    const db = await open({ dataDir: 'memory://' });
    const [row] = await db.reads.rows<{ mode: string }>('mode', Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode, ${1}::int AS one`, { genericPlan: true });
    expect(row).toEqual({ mode: 'auto', one: 1 });
    const prepared = await db.reads.rows('prepared', Prisma.sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%current_setting%' AND statement NOT LIKE '%pg_prepared_statements%'`);
    expect(prepared).toEqual([]);
  });

  // pg's messages go to PGlite through prisma/pglite-connection.ts, its answers come back in
  // chunks of the module's output buffer and are parsed by pg's parser.
  it("reports a failing read as the database's error and reads on after it; a 5 MB answer arrives whole", async () => {
    const db = await open({ dataDir: 'memory://' });
    await expect(db.reads.rows('fails', Prisma.sql`SELECT 1 / (${0}::int) AS never`)).rejects.toThrow(/division by zero/);
    await expect(db.reads.rows('missing', Prisma.sql`SELECT * FROM no_such_table`)).rejects.toThrow(/no_such_table/);
    expect(await db.reads.rows('after', Prisma.sql`SELECT ${41}::int + 1 AS answer`)).toEqual([{ answer: 42 }]);
    const [big] = await db.reads.rows<{ text: string }>('big', Prisma.sql`SELECT repeat('ab', ${2_500_000}::int) || 'é' AS text`);
    expect(big!.text.length).toBe(5_000_001);
    expect(big!.text.endsWith('abé')).toBe(true);
    const many = await db.reads.rows<{ n: number }>('many', Prisma.sql`SELECT n FROM generate_series(1, ${20_000}::int) n`);
    expect(many.map((row) => row.n)).toEqual(Array.from({ length: 20_000 }, (_, index) => index + 1));
  });

  it("waits for a Prisma transaction on PGlite's one session instead of reading inside it", async () => {
    const db = await open({ dataDir: 'memory://' });
    await db.prisma.$executeRawUnsafe('CREATE TABLE catalogue_probe (id int)');
    let read: Promise<{ rows: number }[]> | undefined;
    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO catalogue_probe VALUES (1)');
      read = db.reads.rows<{ rows: number }>('probe', Prisma.sql`SELECT count(*) AS rows FROM catalogue_probe`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.$executeRawUnsafe('INSERT INTO catalogue_probe VALUES (2)');
    });
    // Inside the transaction it would have counted 1 (or broken the transaction's protocol).
    expect(await read).toEqual([{ rows: 2 }]);
    await expect(db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO catalogue_probe VALUES (3)');
      read = db.reads.rows<{ rows: number }>('probe', Prisma.sql`SELECT count(*) AS rows FROM catalogue_probe`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await read).toEqual([{ rows: 2 }]);
  });

  it("sits behind the Prisma client's guard: one runs, maxWaiting wait, the others are refused as busy", async () => {
    const db = await open({ dataDir: 'memory://', serving: limits({ maxWaiting: 2 }) });
    const results = await outcomes([db.prisma.$queryRawUnsafe('SELECT pg_sleep(0.2)'), ...Array.from({ length: 7 }, () => sleepRead(db, 0.2))]);
    expect(results.filter((outcome) => outcome === 'ok')).toHaveLength(3);
    expect(results.filter((outcome) => outcome === 'busy')).toHaveLength(5);
    expect(await sleepRead(db, 0)).toEqual([{ done: 1 }]);
  });
});

describe.skipIf(skipPostgres)('PostgreSQL', () => {
  /** The prepared statements of the one connection of a pool of one, as the reads layer sees them. */
  const preparedOn = (db: Database) =>
    db.reads.rows<{ name: string; statement: string; executions: number }>(
      'prepared',
      Prisma.sql`SELECT name, statement, generic_plans + custom_plans AS executions FROM pg_prepared_statements WHERE statement NOT LIKE '%pg_prepared_statements%' ORDER BY name`,
    );

  it('reads rows with bound values (int8 as numbers)', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    await bindsValues(db);
    expect(await db.reads.rows('ints', Prisma.sql`SELECT ${2}::int8 * 3 AS six, ARRAY[${1}::int8, 2] AS pair`)).toEqual([{ six: 6, pair: [1, 2] }]);
  });

  it('prepares a statement once per connection and reuses it for other values; one name per text', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    for (const value of [1, 2, 3]) expect(await db.reads.rows('plus', Prisma.sql`SELECT ${value}::int + 1 AS next`)).toEqual([{ next: value + 1 }]);
    await db.reads.rows('plus', Prisma.sql`SELECT ${1}::int + 2 AS next`);
    const prepared = await preparedOn(db);
    expect(prepared.map(({ statement, executions }) => ({ statement, executions }))).toEqual(
      expect.arrayContaining([
        { statement: 'SELECT $1::int + 1 AS next', executions: 3 },
        { statement: 'SELECT $1::int + 2 AS next', executions: 1 },
      ]),
    );
    const names = prepared.filter(({ statement }) => statement.includes('AS next')).map(({ name }) => name);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(/^plus_/);
  });

  it('keeps a generic plan for a point lookup after five executions', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    for (let oid = 1; oid <= 8; oid++) await db.reads.rows('lookup', Prisma.sql`SELECT relname FROM pg_class WHERE oid = ${oid}::oid`);
    const [plans] = await db.reads.rows<{ generic: number; custom: number }>(
      'plans',
      Prisma.sql`SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement LIKE '%WHERE oid =%' AND statement NOT LIKE '%pg_prepared_statements%'`,
    );
    expect(plans).toEqual({ generic: 3, custom: 5 });
  });

  it('plans a statement read with planForValues for its values every time: it is never prepared', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    for (let value = 0; value < 8; value++) {
      const [row] = await db.reads.rows<{ n: number }>('plan', Prisma.sql`SELECT count(*) AS n FROM pg_class WHERE relpages > ${value} AND relpages < 0`, { planForValues: true });
      expect(row).toEqual({ n: 0 });
    }
    const prepared = await preparedOn(db);
    expect(prepared.filter(({ statement }) => statement.includes('relpages >'))).toEqual([]);
  });

  it('plans a statement read with genericPlan once, on sessions that force generic plans; the others on sessions that do not', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    const modeOf = async (options: ReadOptions | undefined) =>
      (await db.reads.rows<{ mode: string }>('mode', Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode`, options))[0]!.mode;
    expect(await modeOf({ genericPlan: true })).toBe('force_generic_plan');
    expect(await modeOf(undefined)).toBe('auto');
    expect(await modeOf({ planForValues: true })).toBe('auto');
    for (let value = 0; value < 3; value++) {
      const [row] = await db.reads.rows<{ n: number }>('once', Prisma.sql`SELECT count(*) AS n FROM pg_class WHERE relpages > ${value} AND relpages < 0`, { genericPlan: true });
      expect(row).toEqual({ n: 0 });
    }
    const [plans] = await db.reads.rows<{ generic: number; custom: number }>(
      'plans',
      Prisma.sql`SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement LIKE '%relpages >%' AND statement NOT LIKE '%pg_prepared_statements%'`,
      { genericPlan: true },
    );
    expect(plans).toEqual({ generic: 3, custom: 0 });
  });

  it('resolves every close called while reads are under way, once they are done', async () => {
    const pool = new pg.Pool({ connectionString: ADMIN_URL, max: 1, types: readTypes });
    track({ close: () => pool.end() });
    const reads = poolReads(pool);
    const read = reads.rows('sleep', Prisma.sql`SELECT 1 AS done FROM pg_sleep(${0.2}::float8)`);
    const [first, second] = [reads.close(), reads.close()];
    expect(second).toBe(first);
    await expect(reads.rows('after', Prisma.sql`SELECT 1`)).rejects.toThrow(/closed/);
    expect(await read).toEqual([{ done: 1 }]);
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
  });

  it('prepares at most maxPrepared distinct texts, and runs the others unnamed', async () => {
    const pool = new pg.Pool({ connectionString: ADMIN_URL, max: 1, types: readTypes });
    track({ close: () => pool.end() });
    const reads = poolReads(pool, { maxPrepared: 2 });
    for (const n of [1, 2, 3, 4]) expect(await reads.rows('n', Prisma.sql`SELECT ${n}::int AS ${Prisma.raw(`n${n}`)}`)).toEqual([{ [`n${n}`]: n }]);
    const { rows } = await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement');
    expect(rows.map(({ statement }) => statement)).toEqual(['SELECT $1::int AS n1', 'SELECT $1::int AS n2']);
  });

  it("sits behind the Prisma client's guard: the pool runs, maxWaiting wait, the others are refused at once as busy", async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 2, serving: limits({ maxWaiting: 2 }) });
    // The Prisma client's two queries hold both connections for as long as the test holds an
    // advisory lock they wait for: no timing decides what is busy.
    const lock = Math.floor(Math.random() * 2 ** 31);
    const holder = new pg.Client({ connectionString: ADMIN_URL });
    await holder.connect();
    track({ close: () => holder.end() });
    await holder.query('SELECT pg_advisory_lock($1)', [lock]);
    const prismaWaits = outcomes([0, 1].map(() => db.prisma.$queryRawUnsafe(`SELECT 1 AS done FROM pg_advisory_xact_lock_shared(${lock})`)));
    await waitFor(async () => (await waitingOnLock(holder, lock)) === 2, 'both connections to wait on the lock');
    const reads = Array.from({ length: 4 }, () => sleepRead(db, 0));
    // Refused while the lock is still held, so without waiting for a connection.
    expect(await outcomes(reads.slice(2))).toEqual(['busy', 'busy']);
    await holder.query('SELECT pg_advisory_unlock($1)', [lock]);
    expect(await outcomes(reads.slice(0, 2))).toEqual(['ok', 'ok']);
    expect(await prismaWaits).toEqual(['ok', 'ok']);
  });

  it("applies the serving pool's statement timeout", async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1, serving: limits({ statementTimeoutMs: 200, queryTimeoutMs: 5_000 }) });
    const error = await sleepRead(db, 3).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).reason).toBe('timeout');
    expect(await sleepRead(db, 0)).toEqual([{ done: 1 }]);
  });

  it('gives background reads their own statement timeout, on a connection that goes back to the pool as it came', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1, serving: limits({ statementTimeoutMs: 200, queryTimeoutMs: 5_000, backgroundStatementTimeoutMs: 1_500 }) });
    const backgroundSleep = (seconds: number) => db.reads.rows('sleep', Prisma.sql`SELECT 1 AS done FROM pg_sleep(${seconds}::float8)`, { background: true });
    const timeoutNow = async () => (await db.reads.rows<{ statement_timeout: string }>('timeout', Prisma.sql`SELECT current_setting('statement_timeout') AS statement_timeout`))[0]!.statement_timeout;
    expect(await backgroundSleep(0.5)).toEqual([{ done: 1 }]);
    // One connection: the read after it ran on the same one, with the serving timeout again.
    expect(await timeoutNow()).toBe('200ms');
    expect((await sleepRead(db, 0.5).catch((caught: unknown) => caught)) as DatabaseUnavailableError).toMatchObject({ reason: 'timeout' });
    // Ended by its own timeout: not before 1.5 s (the serving 200 ms did not apply), and long
    // before the 60 s sleep would have ended by itself.
    const started = performance.now();
    expect((await backgroundSleep(60).catch((caught: unknown) => caught)) as DatabaseUnavailableError).toMatchObject({ reason: 'timeout' });
    expect(performance.now() - started).toBeGreaterThan(1_400);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(await timeoutNow()).toBe('200ms');
  }, 40_000);

  it('fails a background read whose connection is lost, and reads on once the database is back', async () => {
    const { proxy, url } = await proxied();
    const db = await open({ url, poolSize: 1, serving: limits({ statementTimeoutMs: 200, backgroundStatementTimeoutMs: 10_000 }) });
    const backgroundSleep = (seconds: number) => db.reads.rows('sleep', Prisma.sql`SELECT 1 AS done FROM pg_sleep(${seconds}::float8)`, { background: true });
    // Tagged, so that the server's list of running statements shows this one and no other's.
    const tag = `lost_${randomUUID().replaceAll('-', '')}`;
    const lost = db.reads.rows('lost', Prisma.sql`SELECT 1 AS ${Prisma.raw(tag)} FROM pg_sleep(5)`, { background: true }).catch((caught: unknown) => caught);
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    track({ close: () => admin.end() });
    await waitFor(() => running(admin, tag), 'the read to be under way on the one connection');
    // Before, the checked-out connection's 'error' event had no listener, and ended the process.
    await proxy.stop();
    expect(await lost).toBeInstanceOf(Error);
    await proxy.start();
    expect(await firstAnswer(() => backgroundSleep(0))).toEqual([{ done: 1 }]);
  });

  it('never gives background reads a shorter timeout than the serving one, nor one where statements have none', () => {
    expect(backgroundStatementTimeout({ statement_timeout: 5_000 }, limits({ backgroundStatementTimeoutMs: 60_000 }))).toBe(60_000);
    expect(backgroundStatementTimeout({ statement_timeout: 5_000 }, limits({ backgroundStatementTimeoutMs: 1_000 }))).toBe(5_000);
    expect(backgroundStatementTimeout({ statement_timeout: 5_000 }, limits({ backgroundStatementTimeoutMs: 0 }))).toBe(0);
    expect(backgroundStatementTimeout({}, limits({ backgroundStatementTimeoutMs: 60_000 }))).toBeUndefined();
  });

  it('is refused at once while the guard knows the database unreachable, and reads again when it answers', async () => {
    const { proxy, url } = await proxied();
    const db = await open({ url, poolSize: 2, serving: limits({ statementTimeoutMs: 0, queryTimeoutMs: 3_000, connectTimeoutMs: 3_000 }) });
    expect(await sleepRead(db, 0)).toEqual([{ done: 1 }]);

    proxy.stall();
    const first = await sleepRead(db, 0).catch((caught: unknown) => caught);
    expect((first as DatabaseUnavailableError).reason).toBe('unreachable');
    // Found by a read, known to the Prisma client too, and the other way round: refused at once,
    // well within the 3 s a query that tried would take to be found unreachable.
    const started = performance.now();
    expect(await outcomes([db.prisma.$queryRawUnsafe('SELECT 2'), sleepRead(db, 0)])).toEqual(['unreachable', 'unreachable']);
    expect(performance.now() - started).toBeLessThan(1_500);

    proxy.resume();
    expect(await firstAnswer(() => sleepRead(db, 0))).toEqual([{ done: 1 }]);
  });
});
