// The hot-read layer: named read statements (built with Prisma.sql, so values are always bound
// parameters) run on the driver itself instead of through Prisma's raw-query layer, which cost
// about 60 % of a cache miss's gateway CPU (issue 12). Prisma stays the model, the migrations
// and every write; only reads on the serving path come here.
//   - PostgreSQL: a named prepared statement on the same pg pool, behind the same QueryGuard
//     (load shedding, fail-fast, timeouts) as the Prisma client's queries. Each connection
//     parses and plans a statement once and then only binds and executes it. The name is
//     derived from the text (pg refuses one name with two texts on a connection), and at most
//     MAX_PREPARED distinct texts are prepared: beyond that they run unnamed (planned each time),
//     so that statements built from unbounded input cannot grow the server's memory.
//   - PGlite: `query` on the same PGlite instance, behind the same guard.
// Rows arrive as objects keyed by column name. Unlike Prisma's $queryRaw, int8 (and int8[])
// arrive as JavaScript numbers on both drivers, as PGlite returns them: the catalogue's ids,
// counts and versions stay far below 2^53. numeric arrives as a string.
import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Prisma } from './generated/client.ts';

export interface Reads {
  /** The rows of a read statement; `name` says what it reads (it names the prepared statement). */
  rows<Row extends object>(name: string, statement: Prisma.Sql): Promise<Row[]>;
}

/** Runs a query under the serving guard (QueryGuard.run), or directly when not serving. */
export type QueryRunner = <T>(query: () => Promise<T>) => Promise<T>;

export interface ReadsOptions {
  run?: QueryRunner | undefined;
  /** Told the SQL of every statement, as Prisma's query event is (tests count statements). */
  onQuery?: ((sql: string) => void) | undefined;
  /** Distinct statement texts that are prepared; more run unnamed. */
  maxPrepared?: number | undefined;
}

export const MAX_PREPARED = 200;

const PG_INT8 = 20;
const PG_INT8_ARRAY = 1016;

const parseInt8 = (text: string) => Number(text);
/** pg's parser of int4[] (OID 1007, absent from its TypeId list) reads int8[] text as numbers too. */
const parseInt8Array = (pg.types.getTypeParser as (oid: number, format: 'text') => (text: string) => number[])(1007, 'text');
const pgTypes = {
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

export function postgresReads(pool: pg.Pool, { run = runDirectly, onQuery, maxPrepared = MAX_PREPARED }: ReadsOptions = {}): Reads {
  const nameOf = statementNames(maxPrepared);
  return {
    async rows<Row extends object>(name: string, statement: Prisma.Sql): Promise<Row[]> {
      const text = statement.text;
      onQuery?.(text);
      const config: pg.QueryConfig = { text, values: statement.values, types: pgTypes };
      const prepared = nameOf(name, text);
      if (prepared !== undefined) config.name = prepared;
      const result = await run(() => pool.query<Row & pg.QueryResultRow>(config));
      return result.rows;
    },
  };
}

export function pgliteReads(client: PGlite, { run = runDirectly, onQuery }: ReadsOptions = {}): Reads {
  return {
    async rows<Row extends object>(_name: string, statement: Prisma.Sql): Promise<Row[]> {
      onQuery?.(statement.text);
      const result = await run(() => client.query<Row>(statement.text, statement.values));
      return result.rows;
    },
  };
}
