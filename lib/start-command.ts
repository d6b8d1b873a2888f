// What `npm start` runs after building, read from package.json, so that the benchmark and the
// tests start the gateway exactly as production does (the same environment settings, the same
// Node flags, the same bundle).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';

export const GATEWAY_BUNDLE = 'dist/gateway.mjs';

export interface StartCommand {
  /** `NAME=value` settings before `node` (for example MALLOC_ARENA_MAX). */
  env: Record<string, string>;
  /** The flags of `node`, before the bundle. */
  flags: string[];
  bundle: string;
}

/** The arguments of `node` that run the command: its flags, then the bundle. */
export const nodeArgsOf = ({ flags, bundle }: StartCommand): string[] => [...flags, bundle];

/** The last command of a start script: `[NAME=value ...] node [--flags] <bundle>.mjs`; undefined when it is not one. */
export function parseStartCommand(script: string): StartCommand | undefined {
  const match = /(?:^|&&)\s*((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)node((?:\s+--\S+)*)\s+(\S+\.m?js)\s*$/.exec(script);
  if (!match) return undefined;
  const env = Object.fromEntries(
    match[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
  );
  return { env, flags: match[2]!.trim().split(/\s+/).filter(Boolean), bundle: match[3]! };
}

/** This checkout's start command. */
export function gatewayStartCommand(): StartCommand {
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = parseStartCommand(scripts.start ?? '');
  if (!command || command.bundle !== GATEWAY_BUNDLE) throw new Error(`package.json's start script does not end with "[NAME=value ...] node [flags] ${GATEWAY_BUNDLE}"`);
  return command;
}
