// `npm start`: open the database (PostgreSQL from DATABASE_URL, else the embedded PGlite
// directory), migrate it, on first embedded start import the demo catalogue and print a demo
// key, then serve.
import { createProgressReporter, formatSummary } from '../cli/progress.ts';
import { bootstrapDatabase } from '../prisma/bootstrap.ts';
import { databaseOptionsFromEnv, openDatabase } from '../prisma/database.ts';
import { DirectoryLockedError } from '../prisma/directory-lock.ts';
import { ConfigError } from '../lib/config-validation.ts';
import { createGateway, listen, loadMesh } from './server.ts';
import { currentRateLimitStore } from './plugins/rate-limit.ts';

const started = performance.now();
const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST || undefined;

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

// The config first: a mistake in .meshrc.yaml is reported before any slow work.
const loaded = await orExit(loadMesh());
const db = await orExit(openDatabase(databaseOptionsFromEnv()));
console.log(`Database: ${db.location}`);

const bootstrap = await bootstrapDatabase(db, createProgressReporter(process.stderr.isTTY ? process.stderr : undefined, console.log));
if (bootstrap.appliedMigrations.length) console.log(`Applied migrations: ${bootstrap.appliedMigrations.join(', ')}`);
if (bootstrap.imported) console.log(formatSummary(bootstrap.imported));

const gateway = await createGateway({ db, loaded });
const store = currentRateLimitStore();
if (store && !(await store.connect(2_000))) console.warn(`warning: rate limit store "${store.name}" not reachable yet; retrying in the background`);
const boundPort = await listen(gateway.server, port, host);
console.log(`Serving on http://${host ?? 'localhost'}:${boundPort} (ready in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

if (bootstrap.demoKey) {
  console.log(
    [
      '',
      `Demo API key (account "${bootstrap.demoKey.accountName}"), shown once, also saved to ${bootstrap.demoKey.savedTo}:`,
      `  ${bootstrap.demoKey.key}`,
      `Try: curl -H "X-API-Key: ${bootstrap.demoKey.key}" 'http://localhost:${boundPort}/search?q=arrow%20left&per_page=3'`,
      '',
    ].join('\n'),
  );
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing in-flight requests, then stopping`);
  await gateway.close();
  await currentRateLimitStore()?.close();
  await db.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
