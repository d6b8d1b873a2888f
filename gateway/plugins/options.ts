// Every plugin validates its own options once, when the gateway is built, so a mistake is
// reported as the key a maintainer wrote in .meshrc.yaml.
import { z } from 'zod';
import { validateConfig } from '../../lib/config-validation.ts';

export function parsePluginOptions<T extends z.ZodType>(schema: T, rawOptions: unknown, where: readonly PropertyKey[]): z.infer<T> {
  return validateConfig(schema, rawOptions ?? {}, '.meshrc.yaml', where);
}

/** An HTTP header name, as options that name headers take it. */
export const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name');
