// Stack traces in the project's TypeScript lines, mapped when they are logged or a crash prints
// them. `npm start` runs the bundle without `--enable-source-maps`: that flag makes Node read and
// keep the source map of every module it loads that names one, most of them packages' (megabytes
// of heap and resident memory on an idle gateway), to map stacks
// nobody may ever read. Here only the bundle's own map is read, on the first stack that has one
// of its frames.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';

/** `file:///…/dist/x.mjs:line:column` or `/…/dist/x.mjs:line:column` in a frame. */
const BUNDLE_FRAME = /(file:\/\/[^\s()]+?|\/[^\s():]+?)\.mjs:(\d+):(\d+)/g;

export type StackMapper = (stack: string) => string;

/**
 * A function that rewrites the frames of bundles in `bundleDir` (with a `.map` beside them) to
 * the sources' lines; other frames, and frames with no mapping, stay as they are.
 */
export function createStackMapper(bundleDir: string): StackMapper {
  const bundlePrefix = `${pathToFileURL(bundleDir).href}/`;
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) maps.set(url, readMap(url));
    return maps.get(url);
  };
  return (stack) =>
    stack.replace(BUNDLE_FRAME, (frame, file: string, line: string, column: string) => {
      const url = `${file.startsWith('file:') ? file : pathToFileURL(file).href}.mjs`;
      if (!url.startsWith(bundlePrefix)) return frame;
      const entry = mapOf(url)?.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined) return frame;
      return `${new URL(entry.originalSource, url).href}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    });
}

function readMap(bundleUrl: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(readFileSync(new URL(`${bundleUrl}.map`), 'utf8')));
  } catch {
    return undefined; // no map (or not readable): the stack is logged as it is
  }
}

/** pino serializers that map the stacks a line carries: a `stack` string, and an `err`'s. */
export function stackSerializers(map: StackMapper) {
  return {
    stack: (stack: unknown) => (typeof stack === 'string' ? map(stack) : stack),
    err: (error: Error) => {
      const serialized = pino.stdSerializers.err(error);
      return typeof serialized?.stack === 'string' ? { ...serialized, stack: map(serialized.stack) } : serialized;
    },
  };
}

/**
 * A crash (an uncaught exception, or a rejection nobody handled) printed with its stack mapped on
 * stderr, then exit 1, as Node does without a handler.
 */
export function reportCrashesMapped(map: StackMapper): void {
  process.on('uncaughtException', (error) => {
    process.stderr.write(`${map(error instanceof Error ? (error.stack ?? String(error)) : `Uncaught ${String(error)}`)}\n`);
    process.exit(1);
  });
}
