import { z } from 'zod';

export const graphqlCacheOptions = z
  .object({
    /** Seconds a result is kept; 0 turns the cache off. @default 30 */
    seconds: z.number().min(0).max(3600).default(30),
    /** Most results kept (a result of 100 icons with markup is about 150 KB). @default 250 */
    maxEntries: z.number().int().positive().default(250),
  })
  .strict();
