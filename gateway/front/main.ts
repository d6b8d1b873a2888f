// `npm start`: open the database (PostgreSQL from DATABASE_URL, else the embedded PGlite
// directory), migrate it, on first embedded start import the demo catalogue and print a demo
// key, then serve. SIGHUP reloads the config in place (reload.ts, docs/reload.md); with
// --watch-config (`npm run dev`) so does any change of .meshrc.yaml or the operations.
import { ConfigError } from '../../lib/config-validation.ts';
import { logger, mapBundleStack } from '../../lib/logger.ts';
import { reportCrashesMapped } from '../../lib/mapped-stack.ts';
import { bootstrapDatabase } from '../../prisma/bootstrap.ts';
import { openServingDatabase, type Database } from '../../prisma/database.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { preloadSearchVocabulary } from '../../resolvers/catalogue/search/index.ts';
import { DirectoryLockedError } from '../../prisma/directory-lock.ts';
import { createProgressReporter, formatSummary } from '../../prisma/import/progress.ts';
import { loadAllocatorTrim, startAllocatorTrims, trimIntervalFromEnv } from './allocator-trim.ts';
import { loadMesh } from './load-mesh.ts';
import { portFromEnv } from '../../lib/listen-port.ts';
import { createFront, listen, ListenError } from './server.ts';
import { createReloader } from './reload.ts';
import { ResourcePool } from '../shared-resources.ts';

// What the process is doing (database, migrations, serving, stopping) is logged even when
// LOG_LEVEL hides info lines such as the access log: supervisors and people wait for "Serving on".
const lifecycle = logger.level === 'silent' ? logger : logger.child({}, { level: 'info' });

// The log's waiting lines are written at exit by pino itself (its destination's exit hook).
reportCrashesMapped(mapBundleStack);

const listenHost = process.env.HOST || undefined;
const watchConfig = process.argv.includes('--watch-config');

/** Expected start-up failures get one clear message and exit 1; anything else keeps its stack. */
async function orExit<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DirectoryLockedError) {
      console.error(`error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

// The config first: a mistake in .meshrc.yaml is reported before any slow work. The gateway
// asks for the database only when it serves, after it is opened and bootstrapped below.
const trimIntervalMs = await orExit(Promise.resolve().then(() => trimIntervalFromEnv()));
const port = await orExit(Promise.resolve().then(() => portFromEnv()));
let provideDatabase!: (db: Database) => void;
const database = new Promise<Database>((resolve) => (provideDatabase = resolve));
// One pool for the process: a reloaded gateway takes over what the one before it held.
const host = { database: () => database, shared: new ResourcePool() };
const loaded = await orExit(loadMesh(host));
const db = await orExit(openServingDatabase());
provideDatabase(db);
lifecycle.info({ msg: `Database: ${db.location}` });

const bootstrap = await bootstrapDatabase(db, createProgressReporter(process.stderr.isTTY ? process.stderr : undefined, (line) => lifecycle.info({ msg: line })));
if (bootstrap.appliedMigrations.length) lifecycle.info({ msg: `Applied migrations: ${bootstrap.appliedMigrations.join(', ')}` });
if (bootstrap.imported) lifecycle.info({ msg: formatSummary(bootstrap.imported) });
if (bootstrap.searchDataRefreshed) lifecycle.info({ msg: 'Search data rebuilt: an import had stopped before it was' });

const front = createFront(loaded);
await loaded.gateway.start(2_000);
const boundPort = await listen(front.server, port, listenHost).catch(async (error: unknown) => {
  if (!(error instanceof ListenError)) throw error;
  console.error(`error: ${error.message}`);
  await loaded.gateway.close();
  await db.close();
  process.exit(1);
});
const reloader = createReloader({ front, host, first: loaded, log: lifecycle, watchFiles: watchConfig });
// `kill -HUP <pid>` reloads: the pid is in this line for whoever reads it rather than the JSON.
const reloadsOn = watchConfig ? 'SIGHUP or a change of the config reloads it' : 'SIGHUP reloads the config';
lifecycle.info({
  msg: `Serving on http://${listenHost ?? 'localhost'}:${boundPort} (pid ${process.pid}, ready ${(performance.now() / 1000).toFixed(1)} s after the process started; ${reloadsOn})`,
});
logger.flush(); // the line a supervisor (or a test) waits for goes out now, not with the next batch
// The list index (list pages and search totals in memory) is read now, in the background,
// rather than started by the first request that needs it; requests use SQL until it is read.
// The line it logs tells an operator that pages and totals come from memory from then on.
const indexStarted = performance.now();
void listIndexOf(db.reads)
  .build()
  .then((icons) =>
    lifecycle.info({
      msg:
        icons === undefined
          ? 'List index not read (the database was busy or down, or imports kept changing the catalogue): list pages are read by SQL until a later request reads it'
          : `List index ready: ${icons.toLocaleString('en-US')} icons, read in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`,
    }),
  );
// So is the search vocabulary, which the first search waited for.
void preloadSearchVocabulary(db.reads);

// The allocator's free pages go back to the system now and then (allocator-trim.ts).
const allocator = trimIntervalMs > 0 ? await loadAllocatorTrim((reason) => logger.debug({ msg: `Allocator trim unavailable: ${reason}` })) : undefined;
const stopTrims = allocator
  ? startAllocatorTrims(allocator, trimIntervalMs, ({ ms, releasedBytes }) =>
      logger.debug({ msg: 'Allocator trimmed', ms: Number(ms.toFixed(2)), releasedMb: Number((releasedBytes / 1_048_576).toFixed(1)) }),
    )
  : undefined;

if (bootstrap.demoKey) {
  // The key goes to a person at a terminal only, never into a log collected from stdout.
  const { accountName, savedTo, key } = bootstrap.demoKey;
  if (process.stdout.isTTY) {
    process.stdout.write(
      [
        '',
        `Demo API key (account "${accountName}"), shown once, also saved to ${savedTo}:`,
        `  ${key}`,
        `Try: curl -H "X-API-Key: ${key}" 'http://localhost:${boundPort}/search?q=arrow%20left&per_page=3'`,
        '',
        '',
      ].join('\n'),
    );
  } else {
    lifecycle.info({ msg: `Demo API key (account "${accountName}") saved to ${savedTo}` });
  }
}

/** After the drain, the stores and the database get this long to close before the process exits anyway. */
const CLOSE_GRACE_MS = 5_000;

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    lifecycle.warn({ msg: `${signal} again: stopping now` });
    logger.flush();
    process.exit(1);
  }
  stopping = true;
  reloader.close();
  const { drainTimeoutMs } = reloader.current.gateway.serverOptions;
  lifecycle.info({ msg: `${signal}: draining (readiness fails, connections close after their current response; at most ${drainTimeoutMs} ms), then stopping` });
  setTimeout(() => {
    lifecycle.error({ msg: `Still stopping ${drainTimeoutMs + CLOSE_GRACE_MS} ms after ${signal}: exiting now` });
    logger.flush();
    process.exit(1);
  }, drainTimeoutMs + CLOSE_GRACE_MS).unref();
  stopTrims?.();
  // A reload under way finishes first (it swaps the gateway the drain then stops).
  await reloader.settle();
  await front.close();
  await reloader.retired(); // the gateways reloads replaced: the drain ended their requests too
  await reloader.current.gateway.close();
  await db.close();
  // Exit once the log is written, or after 2 s if stdout does not take it.
  setTimeout(() => process.exit(0), 2_000).unref();
  logger.flush(() => process.exit(0));
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGHUP', () => {
  if (stopping) return;
  lifecycle.info({ msg: 'SIGHUP: reloading the config' });
  void reloader.reload('SIGHUP');
});
