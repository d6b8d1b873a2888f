// The process's log: one JSON object per line on stdout (pino), for log collectors. LOG_LEVEL
// (default info) filters it; `silent` turns it off. Nothing secret is ever passed to it:
// requests are logged by route, status and account, never with their headers or API keys.
// Lines are written without blocking, in batches of 4 KiB or at least once a second (a write per
// access line was a large part of a cached route's cost, bench/RESULTS.md). If stdout cannot
// keep up, at most 16 MiB wait; beyond that lines are dropped and counted
// (icon_gateway_log_lines_dropped_total), so a slow log reader never exhausts memory.
// Stacks (a `stack` string or an `err`'s) are logged in the sources' lines, not the bundle's.
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createStackMapper, stackSerializers } from './mapped-stack.ts';
import { PROJECT_ROOT } from './project-root.ts';

/** Maps the gateway bundle's frames (`dist/`, see scripts/build-gateway.mjs); others stay. */
export const mapBundleStack = createStackMapper(join(PROJECT_ROOT, 'dist'));

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function createLogger(env = process.env) {
  const level = env.LOG_LEVEL && LEVELS.includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info';
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000, maxLength: 16 * 1024 * 1024 });
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: stackSerializers(mapBundleStack),
    },
    destination,
  );
  return { logger, destination };
}

const shared = createLogger();

export const logger: Logger = shared.logger;

/** Calls `listener` for every line dropped because stdout could not keep up. */
export function onDroppedLogLine(listener: () => void): void {
  shared.destination.on('drop', listener);
}
