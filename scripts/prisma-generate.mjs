#!/usr/bin/env node
// Runs `prisma generate` without network access.
// Every Prisma CLI command first tries to download the native schema-engine binary unless
// PRISMA_SCHEMA_ENGINE_BINARY names an existing executable; `generate` never runs it, so
// pointing it at the Node binary itself is enough. Migrations use the WASM engine instead
// (prisma/engine/), so the native binary is never needed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const prismaCli = require.resolve('prisma/build/index.js');

const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
