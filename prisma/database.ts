// Opens the catalogue database: a PostgreSQL server when DATABASE_URL is set, otherwise the
// embedded PGlite data directory. Both speak the same SQL, so everything above this module
// (migrations, importer, resolvers) is written once.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { z } from 'zod';
import { PrismaClient } from './generated/client.ts';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.ts';
import { PGliteConnection } from './pglite-connection.ts';
import { guardAdapterFactory, logAvailabilityChange, QueryGuard } from './query-guard.ts';
import { poolReads, type QueryRunner, type Reads, readTypes } from './reads.ts';
import { backgroundStatementTimeout, servingLimitsFromEnv, servingPoolSettings, type ServingLimits } from './serving-limits.ts';
import type { DatabaseUnavailableError } from './unavailable.ts';
import { envWholeNumber, validateConfig } from '../lib/config-validation.ts';
import { redactUrl } from '../lib/redact-url.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export type { PrismaClient };

export const DEFAULT_DATA_DIR = resolve(PROJECT_ROOT, '.data', 'pglite');

export interface DatabaseOptions {
  /** A `postgresql://` URL. Wins over `dataDir`. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` for a throwaway in-memory database. */
  dataDir?: string | undefined;
  /** Connection pool size for a server (ignored by PGlite, which is one connection). */
  poolSize?: number | undefined;
  /** PGlite only: start from this dumped data directory (a tarball from `dumpDataDir`). */
  loadDataDir?: Blob | undefined;
  /** Called with the SQL of every statement the Prisma client sends (tests count them). */
  onQuery?: ((sql: string) => void) | undefined;
  /**
   * A serving gateway's limits (serving-limits.ts): timeouts on the PostgreSQL pool, a bound on
   * waiting queries, and fail-fast while the database is unreachable (query-guard.ts). The
   * CLI opens without them.
   */
  serving?: ServingLimits | undefined;
}

export interface Database {
  kind: 'postgres' | 'pglite';
  /** PGlite only: the embedded database as a tarball (tests copy a prepared catalogue with it). */
  dump?: () => Promise<Blob>;
  /** Where the data lives, safe to print (no password). */
  location: string;
  prisma: PrismaClient;
  /** Hot reads on the driver, behind the same guard as the Prisma client (reads.ts). */
  reads: Reads;
  /** The adapter factory the WASM schema engine migrates through. */
  migrationAdapter: SqlMigrationAwareDriverAdapterFactory;
  /**
   * Serving only: the refusal a query would get now (too many waiting, or the database known
   * unreachable), so that a request can be refused before any of its work is done.
   */
  refusal?: () => DatabaseUnavailableError | undefined;
  close(): Promise<void>;
}

const poolEnv = z.object({
  DATABASE_POOL_SIZE: envWholeNumber.refine((size) => size === undefined || size >= 1, 'a pool needs at least one connection'),
});

/** DATABASE_URL, PGLITE_DATA_DIR and DATABASE_POOL_SIZE (a ConfigError names a bad pool size). */
export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  return {
    url: env.DATABASE_URL || undefined,
    dataDir: env.PGLITE_DATA_DIR || undefined,
    poolSize: validateConfig(poolEnv, env, 'the environment').DATABASE_POOL_SIZE,
  };
}

/** The database a gateway serves from: the environment's, with the serving limits it sets (a ConfigError names a bad one). */
export async function openServingDatabase(env: NodeJS.ProcessEnv = process.env): Promise<Database> {
  return openDatabase({ ...databaseOptionsFromEnv(env), serving: servingLimitsFromEnv(env) });
}

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.onQuery, options.serving)
    : openPGlite(options.dataDir ?? DEFAULT_DATA_DIR, options.loadDataDir, options.onQuery, options.serving);
}

interface Guarded {
  /** The factory the Prisma client queries through. */
  factory: SqlDriverAdapterFactory;
  /** How the reads layer runs its queries: through the same guard. */
  run?: QueryRunner;
  refusal?: Database['refusal'];
}

/** The Prisma client's factory and the reads layer's runner, both behind one guard when serving. */
function servingFactory(factory: SqlDriverAdapterFactory, capacity: number, serving?: ServingLimits): Guarded {
  if (!serving) return { factory };
  const guard = new QueryGuard({ capacity, maxWaiting: serving.maxWaiting, onChange: logAvailabilityChange });
  return { factory: guardAdapterFactory(factory, guard), run: (query) => guard.run(query), refusal: () => guard.refusal() };
}

function createClient(adapter: SqlDriverAdapterFactory, onQuery?: (sql: string) => void): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onQuery(event.query));
  return prisma;
}

async function openPostgres(url: string, poolSize: number, onQuery?: (sql: string) => void, serving?: ServingLimits): Promise<Database> {
  // Parsed into fields rather than passed as `connectionString`: adapter-pg opens its shadow
  // database by overriding `database`, which a connection string would silently win over.
  const parsed = parseIntoClientConfig(url);
  const connectSeconds = (parsed as { connect_timeout?: string }).connect_timeout;
  const config: pg.PoolConfig = { ...parsed, max: poolSize, connectionTimeoutMillis: connectSeconds === undefined ? 10_000 : Number(connectSeconds) * 1000 };
  // Migrations get pools of their own, without the serving timeouts: they may run long statements.
  const factory = new PrismaPg(config);
  // One pool for the Prisma client and the reads layer, so that both share its connections and timeouts.
  const settings = serving && servingPoolSettings(parsed, serving);
  const pool = new pg.Pool({ ...config, ...settings, options: sessionSettings(parsed.options), types: readTypes });
  // An idle connection that fails leaves the pool; the next query opens another (or reports the outage).
  pool.on('error', () => {});
  const guarded = servingFactory(new PrismaPg(pool), poolSize, serving);
  const prisma = createClient(guarded.factory, onQuery);
  // As many connections again for the statements planned once (ReadOptions.genericPlan: most searches).
  const genericPool = new pg.Pool({ ...config, ...settings, options: sessionSettings(parsed.options, GENERIC_PLANS), types: readTypes });
  genericPool.on('error', () => {});
  const reads = poolReads(pool, {
    run: guarded.run,
    onQuery,
    backgroundTimeoutMs: serving && settings ? backgroundStatementTimeout(settings, serving) : undefined,
    genericPool,
  });
  return {
    kind: 'postgres',
    location: redactUrl(url),
    prisma,
    reads,
    ...(guarded.refusal && { refusal: guarded.refusal }),
    migrationAdapter: {
      adapterName: factory.adapterName,
      provider: factory.provider,
      connect: async () => withPoolScripts(await factory.connect()),
      connectToShadowDb: () => connectToShadowPostgres(config),
    },
    async close() {
      await reads.close();
      await prisma.$disconnect();
      await Promise.all([pool.end(), genericPool.end()]);
    },
  };
}

/**
 * PGlite's own start parameters, plus a smaller buffer cache: its 128 MB of shared buffers live
 * in the process's WebAssembly memory, which never shrinks, and the data directory's pages are
 * in the operating system's file cache anyway.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=48MB'];

async function openPGlite(dataDir: string, loadDataDir?: Blob, onQuery?: (sql: string) => void, serving?: ServingLimits): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  let lock: DirectoryLock | undefined;
  if (!inMemory) lock = await acquireDirectoryLock(dataDir);
  try {
    const client = await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS, ...(loadDataDir ? { loadDataDir } : {}) });
    // One connection: queries wait behind the one running, up to serving.maxWaiting of them.
    // No timeouts: an in-process database has no network to stall on, and cannot cancel.
    const guarded = servingFactory(new PrismaPGlite(client), 1, serving);
    const prisma = createClient(guarded.factory, onQuery);
    const readsPool = pgliteReadsPool(client);
    const exclusive = exclusiveOn(client);
    const guardedRun = guarded.run;
    const runRead: QueryRunner = guardedRun ? (query) => guardedRun(() => exclusive(query)) : exclusive;
    const reads = poolReads(readsPool, { run: runRead, onQuery });
    const migrationAdapter: SqlMigrationAwareDriverAdapterFactory = {
      adapterName: 'pglite',
      provider: 'postgres',
      connect: async () => withWholeScripts(await new PrismaPGlite(client).connect(), (script) => client.exec(script)),
      // The adapter's own shadow database lacks pg_trgm, which our migrations create.
      connectToShadowDb: async () => {
        const shadow = await PGlite.create({ dataDir: 'memory://', extensions: { pg_trgm } });
        const adapter = withWholeScripts(await new PrismaPGlite(shadow).connect(), (script) => shadow.exec(script));
        adapter.dispose = () => shadow.close();
        return adapter;
      },
    };
    return {
      kind: 'pglite',
      location: inMemory ? dataDir : resolve(dataDir),
      prisma,
      reads,
      migrationAdapter,
      ...(guarded.refusal && { refusal: guarded.refusal }),
      dump: () => client.dumpDataDir('none'),
      async close() {
        await reads.close();
        await prisma.$disconnect();
        await readsPool.end();
        await client.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/**
 * A pg pool of one client on PGlite (pglite-connection.ts), for the reads layer's prepared
 * statements (reads.ts). Each client the pool makes gets a connection of its own; the one client
 * is never closed while idle, and PGlite itself stays open until `close`.
 */
function pgliteReadsPool(client: PGlite): pg.Pool {
  class PGliteClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connection: new PGliteConnection(client) } as pg.ClientConfig);
    }
  }
  const pool = new pg.Pool({ Client: PGliteClient, max: 1, idleTimeoutMillis: 0, types: readTypes });
  // As on the server's pool: a failure of the idle client is the next read's error, not the process's.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs a read alone on PGlite's one session, as `PGlite.query` itself does (its transaction lock,
 * then its query lock): the node-postgres connection sends its protocol messages without either,
 * so a read could otherwise land between the statements of a Prisma transaction, or between the
 * protocol messages of another query.
 */
function exclusiveOn(client: PGlite): QueryRunner {
  return (query) => client._runExclusiveTransaction(() => client.runExclusive(query));
}

/**
 * The session settings of every pool this project opens (the gateway's and the CLI's).
 *
 * Plans: PostgreSQL's default (plan_cache_mode=auto). The reads layer's named statements are
 * point lookups, which after five executions keep a generic plan and are then only bound and
 * executed (planning a single icon's statement cost more than running it); the statements whose
 * plan depends on their values run unnamed and are planned every time (prisma/reads.ts).
 * Prisma's statements are unnamed.
 *
 * No JIT compilation: PostgreSQL compiles a statement whose estimated cost passes
 * jit_above_cost (100,000), and the estimates of statements with per-row subqueries pass it
 * while they run in milliseconds; compiling took most of a similar-icons page's time. An API's statements are short; JIT pays off
 * only for long analytical scans, which the CLI's imports do not depend on either.
 *
 * No parallel workers per statement: a parallel plan starts worker processes (costly next to a
 * page's own work) for list pages that walk a sort index, and under concurrent requests the
 * workers only take cores from the other statements.
 */
function sessionSettings(options: string | undefined, more: string[] = []): string {
  return [options, '-c jit=off', '-c max_parallel_workers_per_gather=0', ...more].filter(Boolean).join(' ');
}

/** The sessions of the pool for statements that one plan fits (prisma/reads.ts, ReadOptions.genericPlan). */
const GENERIC_PLANS = ['-c plan_cache_mode=force_generic_plan'];

/**
 * adapter-pg's executeScript splits scripts on `;` (which breaks on semicolons inside strings
 * and function bodies) and the PGlite adapter's does not await its query, so its errors are
 * lost. Migrations are scripts, so both get a version that sends the script whole and waits.
 */
function withWholeScripts(adapter: SqlDriverAdapter, run: (script: string) => Promise<unknown>): SqlDriverAdapter {
  adapter.executeScript = async (script) => {
    await run(script);
  };
  return adapter;
}

/**
 * adapter-pg's own shadow database is dropped before its pool is closed, which PostgreSQL
 * refuses while the pool's connections are open. This one closes the pool first.
 */
async function connectToShadowPostgres(config: pg.PoolConfig): Promise<SqlDriverAdapter> {
  const admin = new pg.Client(config);
  await admin.connect();
  const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const adapter = withPoolScripts(await new PrismaPg({ ...config, database: name, max: 2 }).connect());
  const closePool = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await closePool();
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`).finally(() => admin.end());
  };
  return adapter;
}

function withPoolScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const pool = (adapter as unknown as { underlyingDriver(): pg.Pool }).underlyingDriver();
  readCharColumnsAsText(adapter);
  return withWholeScripts(adapter, (script) => pool.query(script));
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * Schema introspection reads catalog columns of PostgreSQL's internal one-byte `"char"` type,
 * which adapter-pg cannot map (the engine then fails with "Column type 'char' could not be
 * deserialized"). Its values arrive as strings, so reporting the column as text is exact.
 */
function readCharColumnsAsText(adapter: SqlDriverAdapter): void {
  type PerformIO = (query: unknown) => Promise<pg.QueryResult>;
  const target = adapter as unknown as { performIO: PerformIO };
  const performIO = target.performIO.bind(adapter);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
}
