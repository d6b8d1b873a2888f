// What `npm start` runs after building, read from package.json, so that the benchmark and the
// tests start the gateway exactly as production does (the same Node flags, the same bundle).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';

export const GATEWAY_BUNDLE = 'dist/gateway.mjs';

/** The arguments of `node` in the start script, ending with the bundle. */
export function gatewayNodeArgs(): string[] {
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const match = new RegExp(`(?:^|&&)\\s*node((?:\\s+--\\S+)*)\\s+${GATEWAY_BUNDLE.replace('.', '\\.')}\\s*$`).exec(scripts.start ?? '');
  if (!match) throw new Error(`package.json's start script does not end with "node [flags] ${GATEWAY_BUNDLE}"`);
  return [...match[1]!.trim().split(/\s+/).filter(Boolean), GATEWAY_BUNDLE];
}
