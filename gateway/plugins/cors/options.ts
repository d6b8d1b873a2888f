import { z } from 'zod';
import { headerName } from '../options.ts';

/** An origin as browsers send it: scheme, host and optional port, no path. */
const origin = z.string().regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be an origin such as https://app.example.com (no path, no trailing slash)');

export const corsOptions = z
  .object({
    /** Origins whose pages may read the API's responses; ["*"]: any page. @default ["*"] */
    origins: z.union([z.tuple([z.literal('*')]), z.array(origin).min(1)]).default(['*']),
    /** Request headers a page may send (the API key's header is added, whatever it is named). @default ["X-API-Key", "Authorization", "If-None-Match", "Content-Type"] */
    allowHeaders: z.array(headerName).default(['X-API-Key', 'Authorization', 'If-None-Match', 'Content-Type']),
    /** Response headers a page may read besides the safelisted ones; every header the API describes is added. @default ["ETag", "X-Request-Id", "Retry-After", "X-Cache"] */
    exposeHeaders: z.array(headerName).default(['ETag', 'X-Request-Id', 'Retry-After', 'X-Cache']),
    /** Seconds a browser may keep a preflight's answer (Chromium keeps at most 7200). @default 600 */
    maxAgeSeconds: z.number().int().min(0).max(86_400).default(600),
  })
  .strict();

export type CorsOptions = z.infer<typeof corsOptions>;
