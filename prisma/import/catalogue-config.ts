// The catalogue config (prisma/catalogue.yaml): which Iconify sets the demo catalogue holds,
// which are premium, and their default style. Validated once, with messages naming the key.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError, validateConfig } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export { ConfigError };

export const DEFAULT_CATALOGUE_CONFIG = resolve(PROJECT_ROOT, 'prisma', 'catalogue.yaml');

const setEntry = z
  .object({
    prefix: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be an Iconify prefix such as "mdi" or "fluent-emoji-flat"'),
    premium: z.boolean().default(false),
    defaultStyle: z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'must be a lowercase word such as "outline"').optional(),
  })
  .strict();

const catalogueConfig = z
  .object({ sets: z.array(setEntry).min(1, 'must list at least one set') })
  .strict()
  .superRefine((config, context) => {
    const seen = new Set<string>();
    config.sets.forEach((set, index) => {
      if (seen.has(set.prefix)) {
        context.addIssue({ code: 'custom', path: ['sets', index, 'prefix'], message: `"${set.prefix}" is listed twice` });
      }
      seen.add(set.prefix);
    });
  });

export type CatalogueConfig = z.infer<typeof catalogueConfig>;
export type CatalogueSetConfig = CatalogueConfig['sets'][number];

export function parseCatalogueConfig(text: string, source: string): CatalogueConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  return validateConfig(catalogueConfig, raw, source);
}

export async function loadCatalogueConfig(path = DEFAULT_CATALOGUE_CONFIG): Promise<CatalogueConfig> {
  return parseCatalogueConfig(await readFile(path, 'utf8'), path);
}
