import { z } from 'zod';

/** A route template whose path names one icon: by {ref}, or by {prefix} and {name}. */
const countedRoute = z
  .string()
  .regex(/^\/\S*$/, 'must be a path template such as /icons/{ref}')
  .refine((route) => route.includes('{ref}') !== (route.includes('{prefix}') && route.includes('{name}')), {
    message: 'must name the icon by {ref} (id or slug), or by {prefix} and {name}, and not both',
  });

export const downloadCountsOptions = z
  .object({
    /**
     * false: this gateway counts nothing and writes nothing (one whose DATABASE_URL is a read
     * replica, which refuses writes). @default true
     */
    enabled: z.boolean().default(true),
    /** The routes (as the plugins that serve them name them) whose 200 to a GET is one download. */
    routes: z.array(countedRoute).min(1).default(['/svg/{prefix}/{name}.svg', '/png/{prefix}/{name}.png', '/icons/{ref}', '/iconify/{prefix}/{name}.svg']),
    /** How often counted downloads are sent to the database, in seconds. @default 5 */
    flushSeconds: z.number().min(0.05).max(3600).default(5),
    /**
     * How often the counts sent are folded into the icons' downloads and popularity, in seconds
     * (an icon's figures lag by up to this plus flushSeconds). @default 300
     */
    foldSeconds: z.number().min(0.05).max(86_400).default(300),
    /** The days (UTC, today included) whose downloads are `recent` and make popularity. @default 30 */
    recentDays: z.number().int().min(1).max(3650).default(30),
    /** Different icons held at once while the database cannot take them; more are dropped. @default 100000 */
    maxPendingIcons: z.number().int().min(1).default(100_000),
  })
  .strict();

export type DownloadCountsOptions = z.infer<typeof downloadCountsOptions>;
