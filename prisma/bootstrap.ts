// What a server start needs from the database: migrations applied and, on the embedded
// default, a catalogue, its search data current, and a key to try it with. Idempotent: only the
// first start imports the demo catalogue and creates the demo key; a later one rebuilds search
// data only when an import was killed before it finished them. (A server on PostgreSQL leaves
// that to the next import: gateways may read from a replica, and never write the catalogue.)
import { chmod, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createApiKey, type CreatedKey } from './accounts/api-keys.ts';
import type { Database } from './database.ts';
import { applyMigrations } from './engine/migrations.ts';
import { importDemoCatalogue } from './import/demo-catalogue.ts';
import type { ImportEvent, ImportSummary } from './import/import-sets.ts';
import { refreshSearchDataIfBehind } from './import/refresh-search.ts';

export interface BootstrapResult {
  appliedMigrations: string[];
  imported?: ImportSummary;
  /** The embedded database's search data was behind its catalogue (an import was killed) and was rebuilt. */
  searchDataRefreshed?: boolean;
  demoKey?: CreatedKey & { savedTo: string };
}

export const DEMO_ACCOUNT = 'demo';

export function demoKeyPath(db: Database): string {
  return join(dirname(db.location), 'demo-api-key.txt');
}

export async function bootstrapDatabase(db: Database, onImportEvent?: (event: ImportEvent) => void): Promise<BootstrapResult> {
  const appliedMigrations = await applyMigrations(db);
  const result: BootstrapResult = { appliedMigrations };
  if (db.kind !== 'pglite' || db.location.startsWith('memory://')) return result;

  if ((await db.prisma.iconSet.count()) === 0) {
    result.imported = await importDemoCatalogue(db.prisma, onImportEvent);
  } else if (await refreshSearchDataIfBehind(db.prisma)) {
    result.searchDataRefreshed = true;
  }
  if ((await db.prisma.apiKey.count()) === 0) {
    const key = await createApiKey(db.prisma, { accountName: DEMO_ACCOUNT });
    // The embedded demo keeps its key in its own (git-ignored) data directory so the README's
    // curl examples work; keys made with the CLI are printed once and stored nowhere.
    const savedTo = demoKeyPath(db);
    await writeFile(savedTo, `${key.key}\n`, { mode: 0o600 });
    await chmod(savedTo, 0o600);
    result.demoKey = { ...key, savedTo };
  }
  return result;
}
