// The process's log: one JSON object per line on stdout (pino), for log collectors. LOG_LEVEL
// (default info) filters it; `silent` turns it off. Nothing secret is ever passed to it:
// requests are logged by route, status and account, never with their headers or API keys.
// Lines are written without blocking, in batches of 4 KiB or at least once a second (a write per
// access line was a large part of a cached route's cost, bench/RESULTS.md). If stdout cannot
// keep up, at most 16 MiB wait; beyond that lines are dropped and counted
// (icon_gateway_log_lines_dropped_total), so a slow log reader never exhausts memory.
// The access log, one line per request, is written through `writeInfoLine`, its members
// encoded by the caller: pino's generic serializer was a large part of a cached response
// (bench/RESULTS.md); the line is the one pino would write.
import { pino, type Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

let isoSecond = Number.NaN;
let isoPrefix = '';

/** `new Date(now).toISOString()`, with the date and time formatted once a second. */
export function isoTime(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20); // 2026-11-22T04:06:12.
  }
  const ms = now - second * 1000;
  return `${isoPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

function createLogger(env = process.env) {
  const level = env.LOG_LEVEL && LEVELS.includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info';
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000, maxLength: 16 * 1024 * 1024 });
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: () => `,"time":"${isoTime()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return { logger, destination, lineStart: `{"level":"info","time":"`, lineBase: `","pid":${process.pid},` };
}

const shared = createLogger();

export const logger: Logger = shared.logger;

/**
 * Writes one info line, like `logger.info` would, from `fields`: the line's own JSON members
 * (`"name":value,...`, already encoded, at least one). Nothing is written below info level.
 */
export function writeInfoLine(fields: string): void {
  if (!shared.logger.isLevelEnabled('info')) return;
  shared.destination.write(`${shared.lineStart}${isoTime()}${shared.lineBase}${fields}}\n`);
}

/** Calls `listener` for every line dropped because stdout could not keep up. */
export function onDroppedLogLine(listener: () => void): void {
  shared.destination.on('drop', listener);
}
