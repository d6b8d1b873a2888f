// Gives the catalogue's resolvers what they need in every GraphQL context: the database, the
// caller's account (set by the API-key stage) and the URL templates from .meshrc.yaml.
import { useExtendContext, type Plugin } from '@envelop/core';
import { z } from 'zod';
import { TEMPLATE_PLACEHOLDERS, unknownPlaceholders, LOCALE_PATTERN } from '../../resolvers/urls.ts';
import { exchangeOf } from '../pipeline/yoga-bridge.ts';
import { setUrlTemplates, sharedDatabase } from '../runtime.ts';
import { parsePluginOptions } from './plugin-options.ts';

const template = (example: string) =>
  z
    .string()
    .url(`must be an absolute URL such as ${example}`)
    .superRefine((value, context) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length === 0) return;
      context.addIssue({
        code: 'custom',
        message: `has unknown placeholders ${unknown.map((p) => `{${p}}`).join(', ')} (known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
      });
    });

export const catalogueContextOptions = z
  .object({
    urls: z
      .object({
        /** Address of an icon's SVG file. */
        svgUrl: template('https://cdn.example.com/{prefix}/{name}.svg'),
        /** Address of an icon's page on the website; `{locale}` is the locale segment. */
        pageUrl: template('https://example.com/{locale}/icons/{slug}'),
        defaultLocale: z.string().regex(LOCALE_PATTERN, 'must be a locale such as en or pt-BR').default('en'),
      })
      .strict(),
  })
  .strict();

export const PLUGIN_NAME = '@icon-catalogue/gateway/catalogue-context';

export default function useCatalogueContext(rawOptions: Record<string, unknown>): Plugin<Record<string, unknown>> {
  const { urls } = parsePluginOptions(catalogueContextOptions, PLUGIN_NAME, rawOptions);
  setUrlTemplates(urls);
  return useExtendContext(async (context: Record<string, unknown>) => ({
    prisma: (await sharedDatabase()).prisma,
    viewer: exchangeOf(context)?.caller?.viewer ?? null,
    urls,
  })) as Plugin<Record<string, unknown>>;
}
