import { z } from 'zod';
import { LOCALE_PATTERN, TEMPLATE_PLACEHOLDERS, unknownPlaceholders } from '../../../resolvers/urls.ts';

/** An address template: absolute (a CDN's), or a path on the gateway's own public base URL. */
const template = (example: string) =>
  z
    .string()
    .refine((value) => value.startsWith('/') || URL.canParse(value), `must be a path such as ${example} or an absolute URL`)
    .superRefine((value, context) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length === 0) return;
      context.addIssue({
        code: 'custom',
        message: `has unknown placeholders ${unknown.map((p) => `{${p}}`).join(', ')} (known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
      });
    });

export const publicBaseUrl = z
  .string()
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), 'must be an absolute http(s) URL such as https://api.example.com')
  .transform((value) => value.replace(/\/+$/, ''));

/** The addresses when .meshrc.yaml gives none: the icon-files plugin's route, and the website's page path. */
const DEFAULT_URLS = { svgUrl: '/svg/{prefix}/{name}.svg?v={v}', previewUrl: '/preview/{prefix}/{name}.png?v={v}', pageUrl: '/{locale}/icons/{slug}', defaultLocale: 'en' } as const;

export const catalogueContextOptions = z
  .object({
    /** The gateway's public base URL, for addresses given as paths. @default PUBLIC_URL, else http://localhost:<the listening port> */
    publicUrl: publicBaseUrl.optional(),
    urls: z
      .object({
        /**
         * Address of an icon's SVG file; `{v}` is the version of its content, which icon-files
         * needs to serve the file as immutable. @default "/svg/{prefix}/{name}.svg?v={v}" (served by the icon-files plugin)
         */
        svgUrl: template(DEFAULT_URLS.svgUrl).default(DEFAULT_URLS.svgUrl),
        /**
         * Address of an icon's public PNG preview (premium icons included); `{v}` as in svgUrl.
         * @default "/preview/{prefix}/{name}.png?v={v}" (served by the icon-files plugin)
         */
        previewUrl: template(DEFAULT_URLS.previewUrl).default(DEFAULT_URLS.previewUrl),
        /** Address of an icon's page on the website; `{locale}` is the locale segment. @default "/{locale}/icons/{slug}" */
        pageUrl: template(DEFAULT_URLS.pageUrl).default(DEFAULT_URLS.pageUrl),
        defaultLocale: z.string().regex(LOCALE_PATTERN, 'must be a locale such as en or pt-BR').default(DEFAULT_URLS.defaultLocale),
      })
      .strict()
      .default(DEFAULT_URLS),
    /** Seconds a signed address of a premium file (given to its owners) stays valid. @default 3600 */
    signedUrlSeconds: z.number().int().min(60).max(7 * 86_400).default(3600),
  })
  .strict();
