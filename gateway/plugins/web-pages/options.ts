import { z } from 'zod';

const path = z.string().regex(/^\/[A-Za-z0-9._/-]*$/, 'must be a path such as /docs');

export const webPagesOptions = z
  .object({
    /** The explorer: search and browse the catalogue with a key (it calls the REST API). @default "/" */
    explorerPath: path.default('/'),
    /**
     * The icon pages (the `url` field of every icon): the explorer, opened on the icon. Must match
     * catalogue-context's pageUrl. @default "/{locale}/icons/{slug}"
     */
    iconPagePath: z
      .string()
      .regex(/^(\/[A-Za-z0-9._-]+|\/\{locale\}|\/\{slug\})+$/, 'must be a path made of segments and {locale} and {slug}, such as /{locale}/icons/{slug}')
      .refine((value) => value.includes('{slug}'), 'must contain {slug}')
      .default('/{locale}/icons/{slug}'),
    /** The API reference (Swagger UI of the OpenAPI document); false: none. @default "/docs" */
    docsPath: z.union([path, z.literal(false)]).default('/docs'),
    /** The OpenAPI document the reference shows (rest-routes' openapi.path). @default "/openapi.json" */
    openapiPath: path.default('/openapi.json'),
    /** GraphiQL on GET /graphql for browsers (Accept: text/html), with assets served here. @default true */
    graphiql: z.boolean().default(true),
  })
  .strict();
