// What a server start needs from the database: migrations applied and, on the embedded
// default, a catalogue and a key to try it with. Idempotent: only the first start imports
// the demo catalogue and creates the demo key.
import { chmod, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createApiKey, type CreatedKey } from './accounts/api-keys.ts';
import type { Database } from './database.ts';
import { applyMigrations } from './engine/migrations.ts';
import { importDemoCatalogue } from './import/demo-catalogue.ts';
import type { ImportEvent, ImportSummary } from './import/import-sets.ts';

export interface BootstrapResult {
  appliedMigrations: string[];
  imported?: ImportSummary;
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
