// Downloads counted from real use (issue 14, item 8): a 200 to a GET of a counted route (an
// icon's SVG or PNG file, an SVG file of Iconify's protocol, the single icon's markup at
// /icons/{ref}) is one download of the icon its path names, response-cache hits included; 304s,
// HEADs and refusals are not. The count is a map increment after the response went out
// (tally.ts); every flushSeconds the counts go to
// the database as one batch (prisma/download-batches.ts: exact across processes, applied once).
// A failed batch is resent at the next flush, and requests never wait for or fail with it.
// Every foldSeconds after it sent something, the gateway folds what was sent into the icons'
// figures, and at most hourly it expires the days that left the recent window. The loop runs
// only while there is something to send or fold, so an idle gateway has no timer.
//
// On close the last counts are sent and folded (the front closes the gateway before the
// database). A gateway whose database is a read replica sets `enabled: false`. Across a config
// reload the counter (what is counted and not yet sent, its timer) is kept as long as its
// options are unchanged: the old gateway's requests and the new one's add to the same tally,
// and the last of them to close sends it.
import { logger } from '../../../lib/logger.ts';
import { applyDownloadBatch, expireRecentDownloads, foldDownloads } from '../../../prisma/download-batches.ts';
import type { Database } from '../../../prisma/database.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import { compilePathTemplate, pathParams, type PathTemplate } from '../../pipeline/path-template.ts';
import type { GatewayPlugin, GatewayServices, PluginFactory } from '../../pipeline/plugin.ts';
import { parsePluginOptions } from '../options.ts';
import { downloadCountsOptions, type DownloadCountsOptions } from './options.ts';
import { createDownloadTally, type DownloadedIcon } from './tally.ts';

const EXPIRY_INTERVAL_MS = 3_600_000;
const log = logger.child({ plugin: 'download-counts' });

type CounterOptions = Pick<DownloadCountsOptions, 'flushSeconds' | 'foldSeconds' | 'recentDays' | 'maxPendingIcons'>;

interface DownloadCounter {
  /** Counts one download (false: dropped, too many icons wait) and makes sure a flush will send it. */
  add(icon: DownloadedIcon): boolean;
  /** Sends and folds what is left. */
  close(): Promise<void>;
}

function createDownloadCounter(options: CounterOptions, services: Pick<GatewayServices, 'database' | 'metrics'>): DownloadCounter {
  const tally = createDownloadTally(options.maxPendingIcons);
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let failing = false;
  let nextExpiry = 0;
  /** When what this gateway sent is to be folded next; undefined: nothing it sent waits. */
  let foldAt: number | undefined;

  function schedule(): void {
    timer ??= setTimeout(tick, options.flushSeconds * 1000).unref();
  }

  function tick(): void {
    timer = undefined;
    flushing ??= flush().finally(() => {
      flushing = undefined;
      if (tally.waiting > 0 || foldAt !== undefined) schedule();
    });
  }

  /** The last line of a driver's error (Prisma's start with the invocation): what went wrong. */
  const reason = (error: unknown) => String((error as Error)?.message ?? error).trim().split('\n').at(-1);

  async function flush({ foldNow = false } = {}): Promise<void> {
    let database: Database;
    try {
      database = await services.database();
      if (database.refusal?.()) return; // the database is overloaded or down: try at the next flush
      const batch = tally.batch();
      if (batch) {
        const applied = await applyDownloadBatch(database.prisma, batch);
        tally.applied(batch);
        services.metrics.downloadBatch(applied ? 'applied' : 'applied-before');
        foldAt ??= Date.now() + options.foldSeconds * 1000;
      }
      if (foldAt !== undefined && (foldNow || Date.now() >= foldAt)) {
        foldAt = undefined;
        await foldDownloads(database.prisma).catch((error: unknown) => {
          foldAt = Date.now();
          throw error;
        });
      }
      if (failing) log.info({ msg: 'download counts are written again', waiting: tally.waiting });
      failing = false;
    } catch (error) {
      services.metrics.downloadBatch('failed');
      if (!failing) log.warn({ msg: 'download counts could not be written; they are kept and resent', error: reason(error), waiting: tally.waiting });
      failing = true;
      return;
    }
    if (Date.now() >= nextExpiry) {
      nextExpiry = Date.now() + EXPIRY_INTERVAL_MS;
      try {
        await expireRecentDownloads(database.prisma, options.recentDays);
      } catch (error) {
        nextExpiry = 0;
        log.warn({ msg: 'recent downloads could not be expired; retried at the next flush', error: reason(error) });
      }
    }
  }

  return {
    add(icon) {
      if (!tally.add(icon)) return false;
      schedule();
      return true;
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      await flushing;
      // The unapplied batch, then what gathered meanwhile, folded at once.
      for (let attempt = 0; attempt < 3 && (tally.waiting > 0 || foldAt !== undefined); attempt++) await flush({ foldNow: true });
      if (tally.waiting > 0) log.error({ msg: 'download counts lost on close: the database did not take them', downloads: tally.waiting });
    },
  };
}

export const useDownloadCounts: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(downloadCountsOptions, rawOptions, where);
  const templates = new Map<string, PathTemplate>(options.routes.map((route) => [route, compilePathTemplate(route)]));
  const { flushSeconds, foldSeconds, recentDays, maxPendingIcons } = options;
  const counterOptions = { flushSeconds, foldSeconds, recentDays, maxPendingIcons };
  // None with `enabled: false`: such a gateway holds no counter to hand on.
  let counter: DownloadCounter | undefined;

  /** The icon a counted route's path names; undefined for any other request. */
  function downloadedIcon(exchange: Exchange): DownloadedIcon | undefined {
    const route = exchange.destination?.route;
    const template = route === undefined ? undefined : templates.get(route);
    const params = template && pathParams(template, exchange.path);
    if (!params) return undefined;
    return params.ref !== undefined ? { ref: params.ref } : { prefix: params.prefix!, name: params.name! };
  }

  if (options.enabled) {
    counter = services.keep(
      'download-counts:counter',
      counterOptions,
      () => createDownloadCounter(counterOptions, services),
      (kept) => kept.close(),
    );
  }

  return {
    name: 'download-counts',
    onComplete(exchange, status) {
      if (!counter || status !== 200 || exchange.method !== 'GET') return;
      const icon = downloadedIcon(exchange);
      if (icon && !counter.add(icon)) services.metrics.downloadDropped();
    },
  };
};
