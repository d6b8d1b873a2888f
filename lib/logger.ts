// The process's log: one JSON object per line on stdout (pino), for log collectors. LOG_LEVEL
// (default info) filters it; `silent` turns it off. Lines are written without blocking the
// event loop. Nothing secret is ever passed to it: requests are logged by route, status and
// account, never with their headers or API keys.
import { pino, type Logger } from 'pino';
import { processSingleton } from './process-singleton.ts';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function createLogger(env = process.env): Logger {
  const level = env.LOG_LEVEL && LEVELS.includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info';
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}

export const logger: Logger = processSingleton('logger', () => createLogger());
