// The port `npm start` listens on, from PORT: read by the front and by the plugins that name
// the gateway's own address (catalogue-context's links when PUBLIC_URL is not set).
import { z } from 'zod';
import { envWholeNumber, validateConfig } from './config-validation.ts';

/** The port when PORT is unset or empty, or 0 (any free port) for a purpose that needs a number. */
export const DEFAULT_PORT = 4000;

const listenEnv = z.object({
  PORT: envWholeNumber.default(DEFAULT_PORT).refine((port) => port <= 65_535, 'a TCP port is at most 65535'),
});

/** PORT: 4000 when unset or empty, 0 for any free port; a ConfigError naming it when it is no port. */
export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return validateConfig(listenEnv, env, 'the environment').PORT;
}
