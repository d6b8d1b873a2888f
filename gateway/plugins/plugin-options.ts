// Mesh calls each plugin of .meshrc.yaml with its options plus helpers of its own (logger,
// cache, pubsub, baseDir, importFn). A plugin validates only its own options, once, at start,
// so a mistake is reported as the key a maintainer wrote.
import type { z } from 'zod';
import { validateConfig } from '../../lib/config-validation.ts';

export function parsePluginOptions<T extends z.ZodType>(schema: T, pluginName: string, rawOptions: Record<string, unknown> = {}): z.infer<T> {
  const { logger: _l, cache: _c, pubsub: _p, baseDir: _b, importFn: _i, ...ours } = rawOptions;
  return validateConfig(schema, ours, '.meshrc.yaml', ['plugins', pluginName]);
}
