// The hot-read layer: named read statements (built with Prisma.sql, so values are always bound
// parameters) run on the driver itself instead of through Prisma's raw-query layer, which cost
// about 60 % of a cache miss's gateway CPU (issue 12). Prisma stays the model, the migrations
// and every write; only reads on the serving path come here.
// Both databases are read through a pg pool: a PostgreSQL server over its sockets, PGlite over
// its node-postgres connection (`@electric-sql/pglite/node-postgres`, which hands pg's protocol
// messages to the in-process database), behind the same QueryGuard (load shedding, fail-fast,
// timeouts) as the Prisma client's queries.
//   - Each connection parses a statement once; after five executions PostgreSQL keeps a generic
//     plan when it costs no more than the plans made for the values (plan_cache_mode=auto), so a
//     point lookup is then only bound and executed. The name is derived from the text (pg
//     refuses one name with two texts on a connection), and at most MAX_PREPARED distinct texts
//     are prepared: beyond that they run unnamed, so that statements built from unbounded input
//     cannot grow the server's memory. On PGlite, planning runs in WebAssembly on the gateway's
//     own thread: a statement parsed and planned every time through `PGlite.query` cost several
//     times what it costs prepared.
//   - A statement whose best plan depends on how many rows its values match (a search's
//     tsquery, a list's filters) is read with `planForValues`: it runs unnamed, so it is
//     planned for its values every time (a generic plan for a word no icon has was orders of
//     magnitude slower than its own).
//   - A statement built so that one plan fits all its values (a search's page in relevance order
//     without filters: ranges and scans of indexes, sorts of their matches) is read with
//     `genericPlan`: PostgreSQL's `auto` never chose the generic plan for such a statement (its
//     estimate of a tsquery's rows is a guess), and parsing and planning it cost more than
//     running it (walked pages most), so on PostgreSQL
//     it runs prepared on a second pool whose sessions force generic plans.
//     On PGlite it runs as planForValues (one connection, one setting).
// Rows arrive as objects keyed by column name. Unlike Prisma's $queryRaw, int8 (and int8[])
// arrive as JavaScript numbers: the catalogue's ids, counts and versions stay far below 2^53.
// numeric arrives as a string.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Prisma } from './generated/client.ts';
import { ANSWER_MARGIN_MS } from './serving-limits.ts';

export interface ReadOptions {
  /** The best plan depends on the values (how many rows they match): plan it for them every time. */
  planForValues?: boolean | undefined;
  /**
   * One plan fits every value (its shape was checked against the values it gets): on PostgreSQL it
   * runs prepared on the connections that keep generic plans (`genericPool`), so it is parsed and
   * planned once per connection; elsewhere it is planned for its values, as planForValues.
   */
  genericPlan?: boolean | undefined;
  /**
   * No client waits for it (a part of the list index): it gets the pool's background statement
   * timeout (ReadsOptions.backgroundTimeoutMs) instead of the serving one.
   */
  background?: boolean | undefined;
}

export interface Reads {
  /** The rows of a read statement; `name` says what it reads (it names the prepared statement). */
  rows<Row extends object>(name: string, statement: Prisma.Sql, options?: ReadOptions): Promise<Row[]>;
}

/**
 * `make(reads)`, made once per reads object (one per open database) and kept as long as it is:
 * state such as a vocabulary or shared loaders belongs to a database, not to the process.
 */
export function perReads<T>(make: (reads: Reads) => T): (reads: Reads) => T {
  const made = new WeakMap<Reads, T>();
  return (reads) => {
    let value = made.get(reads);
    if (value === undefined) {
      value = make(reads);
      made.set(reads, value);
    }
    return value;
  };
}

/** Runs a query under the serving guard (QueryGuard.run), or directly when not serving. */
export type QueryRunner = <T>(query: () => Promise<T>) => Promise<T>;

export interface ReadsOptions {
  run?: QueryRunner | undefined;
  /** Told the SQL of every statement, as Prisma's query event is (tests count statements). */
  onQuery?: ((sql: string) => void) | undefined;
  /** Distinct statement texts that are prepared; more run unnamed. */
  maxPrepared?: number | undefined;
  /** A pool like `pool` whose sessions set plan_cache_mode=force_generic_plan, for ReadOptions.genericPlan. */
  genericPool?: pg.Pool | undefined;
  /**
   * The statement timeout of background reads (0: none); undefined: they run as the others do.
   * A read that takes a second on an idle server took more than the 5 s serving timeout under
   * the load of a gateway started cold (all its list pages by SQL), every time it was tried: the
   * list index was never read, and list pages stayed at a third of their speed.
   */
  backgroundTimeoutMs?: number | undefined;
}

export const MAX_PREPARED = 200;

const PG_INT8 = 20;
const PG_INT8_ARRAY = 1016;

const parseInt8 = (text: string) => Number(text);
/** pg's parser of int4[] (OID 1007, absent from its TypeId list) reads int8[] text as numbers too. */
const parseInt8Array = (pg.types.getTypeParser as (oid: number, format: 'text') => (text: string) => number[])(1007, 'text');

/**
 * How a reads pool's clients parse values: pg's parsers, int8 and int8[] as numbers. It is set
 * on the pool, not per query: a per-query `types` is also sent as the parse message's list of
 * parameter types, which PGlite's protocol serializer iterates as an array. Prisma's adapter
 * passes its own parsers with each of its queries, so a pool it shares is not affected.
 */
export const readTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (oid === PG_INT8) return parseInt8;
    if (oid === PG_INT8_ARRAY) return parseInt8Array;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

const runDirectly: QueryRunner = (query) => query();

/** The prepared statement names of distinct texts, up to `max` of them. */
function statementNames(max: number): (name: string, text: string) => string | undefined {
  const names = new Map<string, string>();
  return (name, text) => {
    const known = names.get(text);
    if (known !== undefined || names.size >= max) return known;
    // PostgreSQL truncates names to 63 bytes; the digest keeps distinct texts apart.
    const digest = createHash('sha1').update(text).digest('base64url').slice(0, 16);
    const prepared = `${name.replace(/[^\w-]/g, '_').slice(0, 40)}_${digest}`;
    names.set(text, prepared);
    return prepared;
  };
}

/** Reads that the database's `close` ends. */
export interface PoolReads extends Reads {
  /**
   * Refuses new reads and resolves once those under way are done, so that the pool can be ended:
   * pg's Pool.end leaves a query that waits for a client waiting for ever, and a background read
   * (the list index's) may be one.
   */
  close(): Promise<void>;
}

/** pg's longest timer: no client-side timeout. */
const NO_TIMEOUT = 2 ** 31 - 1;

/**
 * A statement with a statement timeout of its own: on a connection taken from the pool, in a
 * read-only transaction whose SET LOCAL ends with it, so the connection goes back as it came. A
 * connection whose statement failed is closed rather than returned (it may still be running it).
 */
async function queryWithTimeout<Row extends pg.QueryResultRow>(pool: pg.Pool, config: pg.QueryConfig, timeoutMs: number): Promise<pg.QueryResult<Row>> {
  const client = await pool.connect();
  // A connection lost while checked out is an 'error' event for its holder to handle, as
  // pool.query does: unheard, it ends the process (it did when PostgreSQL went away in a test).
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
    const result = await client.query<Row>({ ...config, query_timeout: timeoutMs === 0 ? NO_TIMEOUT : timeoutMs + ANSWER_MARGIN_MS } as pg.QueryConfig);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(failure);
  }
}

/** Reads on `pool`, whose config sets `types: readTypes`. */
export function poolReads(pool: pg.Pool, { run = runDirectly, onQuery, maxPrepared = MAX_PREPARED, backgroundTimeoutMs, genericPool }: ReadsOptions = {}): PoolReads {
  const nameOf = statementNames(maxPrepared);
  let closed = false;
  let underWay = 0;
  let allDone: (() => void) | undefined;
  // One promise for every caller of close: a second call made while reads are under way must
  // not replace the first's resolver (the first would then never resolve).
  let closing: Promise<void> | undefined;
  return {
    async rows<Row extends object>(name: string, statement: Prisma.Sql, options?: ReadOptions): Promise<Row[]> {
      if (closed) throw new Error('the database is closed');
      const text = statement.text;
      onQuery?.(text);
      const config: pg.QueryConfig = { text, values: statement.values };
      const generic = options?.genericPlan === true && genericPool !== undefined;
      const forValues = !generic && (options?.planForValues || options?.genericPlan);
      const prepared = forValues ? undefined : nameOf(name, text);
      if (prepared !== undefined) config.name = prepared;
      const target = generic ? genericPool : pool;
      underWay++;
      try {
        const result = await run(() =>
          options?.background && backgroundTimeoutMs !== undefined ? queryWithTimeout<Row & pg.QueryResultRow>(target, config, backgroundTimeoutMs) : target.query<Row & pg.QueryResultRow>(config),
        );
        return result.rows;
      } finally {
        if (--underWay === 0) allDone?.();
      }
    },
    close() {
      closed = true;
      closing ??= underWay > 0 ? new Promise<void>((resolve) => (allDone = resolve)) : Promise.resolve();
      return closing;
    },
  };
}
