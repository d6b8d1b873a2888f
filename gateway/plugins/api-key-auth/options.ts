import { z } from 'zod';
import { headerName } from '../options.ts';

export const apiKeyAuthOptions = z
  .object({
    /** Header that carries the key (Authorization: Bearer is accepted too). @default "X-API-Key" */
    header: headerName.default('X-API-Key'),
    /** Accept requests without any key; they share the rate limit of their IP address. @default false */
    allowAnonymous: z.boolean().default(false),
    /** Paths served without a key. @default ["/openapi.json"] */
    publicPaths: z.array(z.string().startsWith('/')).default(['/openapi.json']),
    /** Seconds a key's record is kept in memory: a revocation takes effect within this time. 0 checks the database on every request. @default 5 */
    keyCacheSeconds: z.number().min(0).max(300).default(5),
    /** While the database cannot answer, key records read up to this many seconds ago still admit their keys (revocations made meanwhile apply once it is back). 0: every key gets 503. @default 600 */
    keyStaleSeconds: z.number().int().min(0).max(86_400).default(600),
  })
  .strict();
