// What the plugins of one gateway process share: the database (opened once, lazily, because
// `mesh build` loads the plugins without serving anything) and the catalogue's URL templates.
import { databaseOptionsFromEnv, openDatabase, type Database } from '../prisma/database.ts';
import { DEFAULT_URL_TEMPLATES, type UrlTemplates } from '../resolvers/urls.ts';
import { processSingleton } from '../lib/process-singleton.ts';

const shared = processSingleton('runtime', () => ({
  database: undefined as Promise<Database> | undefined,
  urls: DEFAULT_URL_TEMPLATES as UrlTemplates,
}));

/** The process's database, opened from the environment on first use unless one was provided. */
export function sharedDatabase(): Promise<Database> {
  shared.database ??= openDatabase(databaseOptionsFromEnv());
  return shared.database;
}

/** The launcher opens (and bootstraps) the database itself, then hands it over. */
export function provideDatabase(db: Database): void {
  shared.database = Promise.resolve(db);
}

export function urlTemplates(): UrlTemplates {
  return shared.urls;
}

export function setUrlTemplates(templates: UrlTemplates): void {
  shared.urls = templates;
}
