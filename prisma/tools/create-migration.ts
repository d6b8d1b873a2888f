// Writes a new migration: the SQL that takes the existing migrations to schema.prisma.
// Usage: npm run db:migration -- <name>
// It replays the migrations on an in-memory PGlite shadow database, so it needs no server.
// Review the file it writes: things Prisma cannot express (generated columns, custom
// functions) are written by hand into the migration.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase } from '../database.ts';
import { diffMigrationsToSchema, MIGRATIONS_DIR } from '../engine/migrations.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- <name>   (name: lowercase letters, digits, underscores)');
  process.exit(2);
}

const db = await openDatabase({ dataDir: 'memory://' });
try {
  const script = await diffMigrationsToSchema(db);
  if (!script) {
    console.log('schema.prisma and the migrations agree: no migration written.');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(MIGRATIONS_DIR, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'migration.sql'), script);
    
    console.log(`wrote ${join(dir, 'migration.sql')}`);
  }
} finally {
  await db.close();
}
