import { z } from 'zod';

const basePath = z.string().regex(/^\/[A-Za-z0-9._-]+$/, 'must be one path segment such as /svg');

const PREVIEW_DEFAULTS = { path: '/preview', minSize: 16, maxSize: 64, cacheMaxBytes: 4 * 1024 * 1024 } as const;

/**
 * The public PNG previews (`preview_url`), premium icons included. The size bound is what keeps
 * a preview from standing in for the icon's file: at most 256 pixels, whatever the config says.
 */
const previewOptions = z
  .object({
    /** Previews at `<path>/{prefix}/{name}.png?size=`. @default "/preview" */
    path: basePath.default(PREVIEW_DEFAULTS.path),
    /** The smallest `size=` a client may ask for, in pixels. @default 16 */
    minSize: z.number().int().min(1).default(PREVIEW_DEFAULTS.minSize),
    /** The largest preview (its longer side), in pixels, and the size when `size=` is not given. @default 64 */
    maxSize: z.number().int().min(8).max(256).default(PREVIEW_DEFAULTS.maxSize),
    /**
     * Diagonal semi-transparent bands drawn over the icon before it is rasterized; left out,
     * none. `icons`: on premium icons' previews only, or on every preview.
     */
    watermark: z
      .object({
        color: z
          .string()
          .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #808080')
          .default('#808080'),
        opacity: z.number().min(0.05).max(1).default(0.45),
        icons: z.enum(['premium', 'all']).default('premium'),
      })
      .strict()
      .optional(),
    /** Bytes of rendered previews kept in memory, by content. @default 4194304 */
    cacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(PREVIEW_DEFAULTS.cacheMaxBytes),
  })
  .strict()
  .default(PREVIEW_DEFAULTS)
  .refine((preview) => preview.minSize <= preview.maxSize, { message: 'minSize must not exceed maxSize' });

export type PreviewOptions = z.infer<typeof previewOptions>;

export const iconFilesOptions = z
  .object({
    /** The named operation of `operations` that gives an icon's file (its body, size and license). @default "IconFile" */
    operation: z.string().regex(/^[A-Za-z_]\w*$/).default('IconFile'),
    /** The folder of .graphql operations (shared with rest-routes). @default "gateway/operations" */
    operations: z.string().min(1).default('gateway/operations'),
    /** SVG files at `<svgPath>/{prefix}/{name}.svg`. @default "/svg" */
    svgPath: basePath.default('/svg'),
    /** PNG files at `<pngPath>/{prefix}/{name}.png?size=`. @default "/png" */
    pngPath: basePath.default('/png'),
    /** Bounds of an SVG's width, height and size, in pixels. @default { min: 1, max: 2048 } */
    svgSize: z.object({ min: z.number().int().min(1).default(1), max: z.number().int().max(16_384).default(2048) }).strict().default({ min: 1, max: 2048 }),
    /** Bounds and default of a PNG's size (its longer side), in pixels. @default { min: 16, max: 512, default: 64 } */
    pngSize: z
      .object({ min: z.number().int().min(1).default(16), max: z.number().int().max(4096).default(512), default: z.number().int().default(64) })
      .strict()
      .default({ min: 16, max: 512, default: 64 })
      .refine((size) => size.min <= size.default && size.default <= size.max, { message: 'default must lie between min and max' }),
    /** Public PNG previews of every icon (premium ones included): their path, size bound and watermark. */
    preview: previewOptions,
    /** Cache-Control max-age of free icons' files asked for without their current version (`v=`), for browsers and CDNs. @default 86400 */
    maxAgeSeconds: z.number().int().min(0).max(31_536_000).default(86_400),
    /** Cache-Control max-age (with `immutable`) of free icons' files asked for at their current version. @default 31536000 */
    versionedMaxAgeSeconds: z.number().int().min(0).max(31_536_000).default(31_536_000),
    /** Seconds a free icon's file data is kept in this process (a catalogue change shows within it). @default 60 */
    cacheSeconds: z.number().int().min(0).max(3600).default(60),
    /** Bytes of free icons' data (their markup, mostly) kept for cacheSeconds. @default 8388608 */
    dataCacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(8 * 1024 * 1024),
    /** Bytes of finished files (compressed SVGs, PNGs) kept in memory, by content. @default 16777216 */
    cacheMaxBytes: z.number().int().min(0).max(1024 ** 3).default(16 * 1024 * 1024),
  })
  .strict();

export type IconFilesOptions = z.infer<typeof iconFilesOptions>;
