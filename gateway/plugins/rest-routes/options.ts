// The REST route table as written in .meshrc.yaml: each route a path, a named GraphQL
// operation, how its result becomes the response body, and the rules of its parameters. The
// 400 messages and the OpenAPI document are both derived from these rules, completed by the
// bounds of the GraphQL arguments the parameters fill (route-table.ts).
import { z } from 'zod';

const paramName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case (lowercase letters, digits, _)');
const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a GraphQL variable name');

const common = {
  /** The GraphQL variable it fills; defaults to the parameter's name. */
  variable: variableName.optional(),
  required: z.boolean().default(false),
  description: z.string().optional(),
};

const integerParam = z
  .object({
    type: z.literal('integer'),
    minimum: z.number().int().optional(),
    maximum: z.number().int().optional(),
    default: z.number().int().optional(),
    ...common,
  })
  .strict()
  .superRefine((param, context) => {
    if (param.minimum !== undefined && param.maximum !== undefined && param.minimum > param.maximum) {
      context.addIssue({ code: 'custom', path: ['maximum'], message: `must not be below minimum (${param.minimum})` });
    }
    for (const bound of ['minimum', 'maximum'] as const) {
      const limit = param[bound];
      if (param.default === undefined || limit === undefined) continue;
      if (bound === 'minimum' ? param.default < limit : param.default > limit) {
        context.addIssue({ code: 'custom', path: ['default'], message: `must lie within minimum and maximum (got ${param.default})` });
      }
    }
  });

const stringParam = z
  .object({
    type: z.literal('string'),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(1).optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict();

const enumParam = z
  .object({
    type: z.literal('enum'),
    /** REST value -> GraphQL value (for example `free: FREE`). */
    values: z.record(z.string().regex(/^[a-z0-9_-]+$/, 'REST values must be lowercase'), z.string()).refine((v) => Object.keys(v).length > 0, 'must list at least one value'),
    default: z.string().optional(),
    ...common,
  })
  .strict()
  .superRefine((param, context) => {
    if (param.default !== undefined && !(param.default in param.values)) {
      context.addIssue({ code: 'custom', path: ['default'], message: `must be one of the values (${Object.keys(param.values).join(', ')})` });
    }
  });

const flagParam = z
  .object({
    type: z.literal('flag'),
    default: z.union([z.literal(0), z.literal(1)]).optional(),
    ...common,
  })
  .strict();

/**
 * Several values in one parameter, separated by commas (`ids=1,2,3`, OpenAPI's form style
 * without explode): each a whole number or a text, at most `maxItems` of them, each text of
 * at most `maxLength` characters. Fills a GraphQL list.
 */
const listParam = z
  .object({
    type: z.literal('list'),
    items: z.enum(['integer', 'string']),
    maxItems: z.number().int().min(1),
    maxLength: z.number().int().min(1).optional(),
    /** A list has no default: absent means not given. */
    default: z.never().optional(),
    ...common,
  })
  .strict();

export const paramRule = z.discriminatedUnion('type', [integerParam, stringParam, enumParam, flagParam, listParam]);

const route = z
  .object({
    /** `/icons/{ref}`: segments in braces are path parameters (one segment each). */
    path: z.string().regex(/^(\/([a-z0-9_.-]+|\{[a-z][A-Za-z0-9_]*\}))+$/, 'must be a path like /icons or /icons/{ref}'),
    /** A named operation of the operations folder. */
    operation: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    /**
     * `page`: the operation's one root field already is `{ data, meta }` and becomes the body.
     * `data`: the body is `{ "data": <the root field> }`.
     */
    envelope: z.enum(['page', 'data']),
    /** The OpenAPI operation's one-line summary and its longer description (Markdown). */
    summary: z.string().optional(),
    description: z.string().optional(),
    /** The OpenAPI tag grouping the route. @default its first path segment, capitalised ("/icons" -> "Icons") */
    tag: z.string().min(1).optional(),
    params: z.record(paramName, paramRule).default({}),
    /**
     * Keep finished responses this many seconds (0: never). `shared`: one copy for every caller
     * (the response cannot depend on who asks); `account`: one per account.
     */
    cache: z
      .object({ seconds: z.number().int().min(0).max(3600).default(0), scope: z.enum(['shared', 'account']).default('account') })
      .strict()
      .default({ seconds: 0, scope: 'account' }),
  })
  .strict();

const openApiOptions = z
  .object({
    path: z.string().startsWith('/').default('/openapi.json'),
    title: z.string().default('Icon Catalogue API'),
    version: z.string().default('1.0.0'),
    /** The introduction (Markdown); what the plugins say of themselves (keys, limits, headers) follows it. */
    description: z.string().optional(),
    /**
     * Where the API is served. @default [{ url: "/" }]: the server the document comes from
     * (a deployment behind another path or host lists its public address).
     */
    servers: z
      .array(z.object({ url: z.string().min(1), description: z.string().optional() }).strict())
      .min(1)
      .default([{ url: '/' }]),
    /** The license of the API description (`identifier`: an SPDX id). @default MIT */
    license: z
      .object({ name: z.string().min(1), identifier: z.string().optional(), url: z.url().optional() })
      .strict()
      .refine((license) => !(license.identifier && license.url), 'give identifier or url, not both')
      .default({ name: 'MIT', identifier: 'MIT' }),
    contact: z.object({ name: z.string().optional(), url: z.url().optional(), email: z.email().optional() }).strict().optional(),
    /** Descriptions of the routes' tags, by tag name. */
    tags: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export const restRoutesOptions = z
  .object({
    /** Folder of .graphql files holding the routes' operations (and shared fragments). */
    operations: z.string().default('gateway/operations'),
    /** Most bytes of response bodies kept by the response cache. @default 16777216 (16 MiB) */
    cacheMaxBytes: z.number().int().min(0).default(16 * 1024 * 1024),
    /** While the database cannot answer, kept responses up to this many seconds past their cache.seconds are served (X-Cache: STALE). 0: never. @default 600 */
    cacheStaleSeconds: z.number().int().min(0).max(86_400).default(600),
    routes: z.array(route).min(1, 'must list at least one route'),
    /** The OpenAPI document: where it is served, and what it says of the API beyond its routes. */
    openapi: openApiOptions.default(openApiOptions.parse({})),
  })
  .strict()
  .superRefine((options, context) => {
    const seen = new Map<string, number>();
    options.routes.forEach((r, index) => {
      const shape = r.path.replace(/\{[^}]+\}/g, '{}');
      if (seen.has(shape)) context.addIssue({ code: 'custom', path: ['routes', index, 'path'], message: `"${r.path}" is already routed (routes[${seen.get(shape)}])` });
      seen.set(shape, index);
      for (const name of r.path.match(/\{([^}]+)\}/g) ?? []) {
        const param = name.slice(1, -1);
        if (param in r.params) context.addIssue({ code: 'custom', path: ['routes', index, 'params', param], message: 'is a path parameter; declare it in the path only' });
      }
    });
  });

export type ParamRule = z.infer<typeof paramRule>;
export type RouteConfig = z.infer<typeof route>;
export type RestRoutesOptions = z.infer<typeof restRoutesOptions>;
