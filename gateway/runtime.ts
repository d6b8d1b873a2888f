// What the plugins of one gateway process share: the database (opened once, lazily, because
// `mesh build` loads the plugins without serving anything) and the catalogue's URL templates.
import { databaseOptionsFromEnv, openDatabase, type Database } from '../prisma/database.ts';
import { DEFAULT_URL_TEMPLATES, type UrlTemplates } from '../resolvers/urls.ts';

let database: Promise<Database> | undefined;
let urls: UrlTemplates = DEFAULT_URL_TEMPLATES;

/** The process's database, opened from the environment on first use unless one was provided. */
export function sharedDatabase(): Promise<Database> {
  database ??= openDatabase(databaseOptionsFromEnv());
  return database;
}

/** The launcher opens (and bootstraps) the database itself, then hands it over. */
export function provideDatabase(db: Database): void {
  database = Promise.resolve(db);
}

export function urlTemplates(): UrlTemplates {
  return urls;
}

export function setUrlTemplates(templates: UrlTemplates): void {
  urls = templates;
}
