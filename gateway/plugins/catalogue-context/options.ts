import { z } from 'zod';
import { LOCALE_PATTERN, TEMPLATE_PLACEHOLDERS, unknownPlaceholders } from '../../../resolvers/urls.ts';

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
