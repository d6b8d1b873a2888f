import { z } from 'zod';

const operationName = z.string().regex(/^[A-Za-z_]\w*$/, 'must be a GraphQL operation name');

export const iconifyProtocolOptions = z
  .object({
    /** Where the protocol is answered: `<path>/{prefix}.json`, `<path>/collections`... (the `path` of Iconify's addAPIProvider is this plus `/`). @default "/iconify" */
    path: z
      .string()
      .regex(/^(\/[A-Za-z0-9._-]+)+$/, 'must be a path such as /iconify (no trailing slash)')
      .default('/iconify'),
    /** The folder of .graphql operations (shared with rest-routes). @default "gateway/operations" */
    operations: z.string().min(1).default('gateway/operations'),
    /** The named operations the endpoints run. */
    operationNames: z
      .object({
        icons: operationName.default('IconifyIcons'),
        sets: operationName.default('IconifySets'),
        collection: operationName.default('IconifyCollection'),
        search: operationName.default('IconifySearch'),
      })
      .strict()
      .default({ icons: 'IconifyIcons', sets: 'IconifySets', collection: 'IconifyCollection', search: 'IconifySearch' }),
    /** The most icon names one icon data or CSS request may ask for (Iconify's components ask for far fewer). @default 500 */
    maxIconsPerRequest: z.number().int().min(1).max(1000).default(500),
    /** Bounds of an SVG's width and height when given in pixels. @default { min: 1, max: 2048 } */
    svgSize: z
      .object({ min: z.number().int().min(1).default(1), max: z.number().int().max(16_384).default(2048) })
      .strict()
      .default({ min: 1, max: 2048 })
      .refine((size) => size.min <= size.max, { message: 'min must not exceed max' }),
    /** Cache-Control max-age of answers made of free icons and of the lists (collections, search), for browsers and CDNs. @default 604800 */
    maxAgeSeconds: z.number().int().min(0).max(31_536_000).default(604_800),
    /** Seconds free icons' data and the lists' answers are kept in this process (a catalogue change shows within it). @default 60 */
    cacheSeconds: z.number().int().min(0).max(3600).default(60),
    /** Bytes of free icons' data (their markup, mostly) kept for cacheSeconds. @default 8388608 */
    dataCacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(8 * 1024 * 1024),
    /** Bytes of the lists' finished answers (collections, collection, search, last-modified) kept for cacheSeconds. @default 8388608 */
    listCacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(8 * 1024 * 1024),
    /** Bytes of free icons' finished SVG files (by name and customizations) kept for cacheSeconds. @default 4194304 */
    svgCacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(4 * 1024 * 1024),
  })
  .strict();

export type IconifyProtocolOptions = z.infer<typeof iconifyProtocolOptions>;
