// How long a serving gateway waits for its database, and how many queries may queue, from the
// environment. Only the gateway applies them (the CLI's imports run statements of minutes):
//   DATABASE_STATEMENT_TIMEOUT_MS  the server cancels a statement after this (statement_timeout)
//   DATABASE_QUERY_TIMEOUT_MS      the gateway stops waiting for an answer (a stalled server or
//                                  network; default: the statement timeout + 1 s)
//   DATABASE_CONNECT_TIMEOUT_MS    opening a connection, or waiting for a free one in the pool
//   DATABASE_MAX_WAITING           queries that may wait for a connection; more get 503 at once
//   DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS
//                                  the statement timeout of reads that no client waits for (the
//                                  list index's parts), which under load outlast the statement
//                                  timeout; never shorter than it
// 0 turns a timeout off. DATABASE_URL may set the first three for every user of the URL, the
// CLI included, as `statement_timeout`, `query_timeout` (ms) and `connect_timeout` (s); there
// they win over these variables.
import { z } from 'zod';
import { envWholeNumber, validateConfig } from '../lib/config-validation.ts';

export interface ServingLimits {
  statementTimeoutMs: number;
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  maxWaiting: number;
  backgroundStatementTimeoutMs: number;
}

const servingEnv = z.object({
  DATABASE_STATEMENT_TIMEOUT_MS: envWholeNumber.default(5_000),
  DATABASE_QUERY_TIMEOUT_MS: envWholeNumber,
  DATABASE_CONNECT_TIMEOUT_MS: envWholeNumber.default(2_000),
  DATABASE_MAX_WAITING: envWholeNumber.default(100),
  DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS: envWholeNumber.default(60_000),
});

/** How much longer than a statement's timeout the gateway waits for its answer, by default. */
export const ANSWER_MARGIN_MS = 1_000;

export function servingLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): ServingLimits {
  const parsed = validateConfig(servingEnv, env, 'the environment');
  const statementTimeoutMs = parsed.DATABASE_STATEMENT_TIMEOUT_MS;
  return {
    statementTimeoutMs,
    queryTimeoutMs: parsed.DATABASE_QUERY_TIMEOUT_MS ?? (statementTimeoutMs > 0 ? statementTimeoutMs + ANSWER_MARGIN_MS : 0),
    connectTimeoutMs: parsed.DATABASE_CONNECT_TIMEOUT_MS,
    maxWaiting: parsed.DATABASE_MAX_WAITING,
    backgroundStatementTimeoutMs: parsed.DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS,
  };
}

/**
 * The pg pool settings for serving: what `url` sets itself (the parsed config's own
 * statement_timeout, query_timeout, connect_timeout), else `limits`.
 */
export function servingPoolSettings(parsedUrl: object, limits: ServingLimits): { statement_timeout?: number; query_timeout?: number; connectionTimeoutMillis: number } {
  const options = parsedUrl as Record<string, unknown>;
  const fromUrl = (name: string) => (options[name] === undefined ? undefined : Number(options[name]));
  const statement = fromUrl('statement_timeout') ?? limits.statementTimeoutMs;
  const query = fromUrl('query_timeout') ?? limits.queryTimeoutMs;
  const connectSeconds = fromUrl('connect_timeout');
  return {
    ...(statement > 0 ? { statement_timeout: statement } : {}),
    ...(query > 0 ? { query_timeout: query } : {}),
    connectionTimeoutMillis: connectSeconds === undefined ? limits.connectTimeoutMs : connectSeconds * 1000,
  };
}

/**
 * The statement timeout of background reads (ReadOptions.background) on a pool with `settings`
 * (servingPoolSettings): undefined when its statements have none, so background reads need no
 * other; 0 for none; never shorter than the pool's own.
 */
export function backgroundStatementTimeout(settings: { statement_timeout?: number }, limits: ServingLimits): number | undefined {
  const statement = settings.statement_timeout;
  if (statement === undefined) return undefined;
  const background = limits.backgroundStatementTimeoutMs;
  return background === 0 ? 0 : Math.max(background, statement);
}
