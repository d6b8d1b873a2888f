// The serving limits of prisma/database.ts on real databases: a bounded queue of waiting
// queries on PGlite and PostgreSQL (more are refused at once), statement and query timeouts
// on PostgreSQL (set by the environment or by DATABASE_URL), and fail-fast while a PostgreSQL
// behind a stalled TCP proxy does not answer, healing by itself when it answers again.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config-validation.ts';
import { databaseOptionsFromEnv, type Database } from '../../prisma/database.ts';
import { servingLimitsFromEnv } from '../../prisma/serving-limits.ts';
import { DatabaseUnavailableError } from '../../prisma/unavailable.ts';
import { ADMIN_URL, postgresUnavailable } from '../helpers/databases.ts';
import { firstAnswer, servingDatabases, servingLimits } from '../helpers/serving-databases.ts';

const skipPostgres = Boolean(await postgresUnavailable());
const limits = servingLimits;
const { open, proxied } = servingDatabases();


const sleepQuery = (db: Database, seconds: number) => db.prisma.$queryRawUnsafe(`SELECT 1 AS done FROM pg_sleep(${seconds})`);

/** How each of `count` concurrent sleeps ended, and after how many ms. */
async function concurrentSleeps(db: Database, count: number, seconds: number) {
  const started = performance.now();
  return Promise.all(
    Array.from({ length: count }, () =>
      sleepQuery(db, seconds).then(
        () => ({ outcome: 'ok', ms: performance.now() - started }),
        (error: unknown) => ({ outcome: error instanceof DatabaseUnavailableError ? error.reason : String(error), ms: performance.now() - started }),
      ),
    ),
  );
}

/** The rejection of `work`, and after how many ms it came. */
async function failure(work: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeDefined();
  return { error, ms: performance.now() - started };
}

describe('the serving limits from the environment', () => {
  it('default to a 5 s statement timeout, a query timeout 1 s longer, a 2 s connect timeout, 100 waiting queries and 60 s for background reads', () => {
    expect(servingLimitsFromEnv({})).toEqual({ statementTimeoutMs: 5_000, queryTimeoutMs: 6_000, connectTimeoutMs: 2_000, maxWaiting: 100, backgroundStatementTimeoutMs: 60_000 });
    expect(
      servingLimitsFromEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '800', DATABASE_MAX_WAITING: '0', DATABASE_CONNECT_TIMEOUT_MS: '', DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS: '0' }),
    ).toEqual({
      statementTimeoutMs: 800,
      queryTimeoutMs: 1_800,
      connectTimeoutMs: 2_000,
      maxWaiting: 0,
      backgroundStatementTimeoutMs: 0,
    });
    expect(servingLimitsFromEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).queryTimeoutMs).toBe(0);
  });

  it('refuse a value that is not a whole number, naming the variable', () => {
    expect(() => servingLimitsFromEnv({ DATABASE_MAX_WAITING: 'many' })).toThrow(ConfigError);
    expect(() => servingLimitsFromEnv({ DATABASE_QUERY_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_QUERY_TIMEOUT_MS/);
  });

  it('take the pool size as a whole number of at least one, empty counting as unset', () => {
    expect(databaseOptionsFromEnv({ DATABASE_POOL_SIZE: '4' }).poolSize).toBe(4);
    expect(databaseOptionsFromEnv({ DATABASE_POOL_SIZE: '' }).poolSize).toBeUndefined();
    expect(databaseOptionsFromEnv({}).poolSize).toBeUndefined();
    for (const bad of ['ten', '0', '2.5']) expect(() => databaseOptionsFromEnv({ DATABASE_POOL_SIZE: bad }), bad).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('PGlite (one connection)', () => {
  it('lets one query run and maxWaiting wait, and refuses the others at once as busy', async () => {
    const db = await open({ dataDir: 'memory://', serving: limits({ maxWaiting: 2 }) });
    const results = await concurrentSleeps(db, 8, 0.2);
    const served = results.filter((result) => result.outcome === 'ok').map(({ ms }) => ms);
    expect(served).toHaveLength(3);
    const refused = results.filter((result) => result.outcome === 'busy').map(({ ms }) => ms);
    expect(refused).toHaveLength(5);
    // PGlite's sleep blocks the thread, so time is measured in turns: refusals wait for none.
    expect(Math.max(...refused)).toBeLessThan(served.sort((a, b) => a - b)[1]!);
    expect((await sleepQuery(db, 0)) as unknown[]).toHaveLength(1); // and serves again once they are done
  });
});

describe.skipIf(skipPostgres)('PostgreSQL', () => {
  it('lets the pool run its queries and maxWaiting wait, and refuses the others at once as busy', async () => {
    // Connecting is not what is tested: both connections are opened first, with all the time a
    // loaded machine needs (a connect timeout here would be an "unreachable", not a refusal).
    const db = await open({ url: ADMIN_URL, poolSize: 2, serving: limits({ maxWaiting: 2, connectTimeoutMs: 30_000, queryTimeoutMs: 60_000 }) });
    await Promise.all([sleepQuery(db, 0.05), sleepQuery(db, 0.05)]);
    const results = await concurrentSleeps(db, 10, 0.3);
    const served = results.filter((result) => result.outcome === 'ok').map(({ ms }) => ms);
    expect(served).toHaveLength(4);
    const refused = results.filter((result) => result.outcome === 'busy').map(({ ms }) => ms);
    expect(refused).toHaveLength(6);
    // Refused at once: before even the first query the pool ran has come back.
    expect(Math.max(...refused)).toBeLessThan(Math.min(...served));
  });

  it('cancels a statement past the statement timeout (a timeout, the database still reachable)', async () => {
    // The budgets are far apart, so a loaded machine cannot blur them: the statement timeout
    // (200 ms) ends it, long before the query timeout (30 s) or the sleep (60 s) would.
    const db = await open({ url: ADMIN_URL, poolSize: 2, serving: limits({ statementTimeoutMs: 200, queryTimeoutMs: 30_000 }) });
    const { error, ms } = await failure(sleepQuery(db, 60));
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).reason).toBe('timeout');
    expect(ms).toBeLessThan(15_000);
    expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }, 40_000);

  it("takes DATABASE_URL's own statement_timeout over the environment's", async () => {
    const url = new URL(ADMIN_URL);
    url.searchParams.set('statement_timeout', '150');
    const db = await open({ url: url.toString(), poolSize: 1, serving: limits() });
    const { error } = await failure(sleepQuery(db, 3));
    expect((error as DatabaseUnavailableError).reason).toBe('timeout');
  });

  it('has no statement timeout when opened without serving limits (the CLI)', async () => {
    const db = await open({ url: ADMIN_URL, poolSize: 1 });
    expect(await db.prisma.$queryRawUnsafe("SELECT current_setting('statement_timeout') AS timeout")).toEqual([{ timeout: '0' }]);
    expect(await sleepQuery(db, 0.3)).toEqual([{ done: 1 }]);
  });

  it('stops waiting for a stalled server after the query timeout, then refuses at once, and heals when it answers again', async () => {
    const { proxy, url } = await proxied();
    const db = await open({ url, poolSize: 2, serving: limits({ statementTimeoutMs: 0, queryTimeoutMs: 2_000, connectTimeoutMs: 2_000 }) });
    expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);

    proxy.stall();
    const first = await failure(db.prisma.$queryRawUnsafe('SELECT 2'));
    expect((first.error as DatabaseUnavailableError).reason).toBe('unreachable');
    // After the query timeout, not before (a stalled server that was waited on for good would
    // be this test's own timeout).
    expect(first.ms).toBeGreaterThanOrEqual(1_950);
    // Known unreachable: refused without a round trip (the next try is up to a second away),
    // so well within the 2 s a query sent to the stalled server would wait.
    const next = await failure(db.prisma.$queryRawUnsafe('SELECT 3'));
    expect((next.error as DatabaseUnavailableError).reason).toBe('unreachable');
    expect(next.ms).toBeLessThan(1_000);

    proxy.resume();
    expect(await firstAnswer(() => db.prisma.$queryRawUnsafe('SELECT 4 AS four'))).toEqual([{ four: 4 }]);
  });
});
