// The bench folds downloads that earlier gateways counted but did not fold before it starts its
// gateways (bench/leftover-downloads.ts), so that no fold runs inside a measurement.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldLeftoverDownloads } from '../../bench/leftover-downloads.ts';
import { openDatabase } from '../../prisma/database.ts';
import { applyDownloadBatch } from '../../prisma/download-batches.ts';
import { createCatalogueCopy, postgresUnavailable, withCatalogueDataDir } from '../helpers/databases.ts';

const skipPostgres = Boolean(await postgresUnavailable());

/** Counts downloads of three icons without folding them, then folds what is left through the bench's step. */
async function leftoversFolded(source: { url?: string; dataDir?: string }) {
  const before = await openDatabase({ ...source, poolSize: 1 });
  const icons = await before.prisma.icon.findMany({ where: { published: true }, orderBy: { id: 'asc' }, take: 3, select: { id: true, downloads: true } });
  await applyDownloadBatch(before.prisma, { id: `leftover-${process.pid}-${Date.now()}`, ids: icons.map(({ id }, index) => ({ id, count: index + 2 })), slugs: [], files: [] });
  await before.close();

  const first = await foldLeftoverDownloads(source);
  const second = await foldLeftoverDownloads(source);

  const after = await openDatabase({ ...source, poolSize: 1 });
  const folded = await after.prisma.icon.findMany({ where: { id: { in: icons.map(({ id }) => id) } }, orderBy: { id: 'asc' }, select: { id: true, downloads: true } });
  await after.close();
  return { icons, first, second, folded };
}

function expectFolded({ icons, first, second, folded }: Awaited<ReturnType<typeof leftoversFolded>>) {
  expect(first.rows).toBe(3);
  expect(first.updates).toBe(3);
  expect(first.line).toMatch(/^folded 3 download-day rows that earlier gateways left \(3 icon updates, \d+\.\d s\) before starting$/);
  expect(folded).toEqual(icons.map(({ id, downloads }, index) => ({ id, downloads: downloads + index + 2 })));
  expect(second).toEqual({ rows: 0, updates: 0, seconds: 0, line: 'no downloads were waiting for a fold' });
}

describe('folding leftover downloads before a bench run', () => {
  it('folds what a stopped gateway left in an embedded data directory, once', async () => {
    await withCatalogueDataDir(async (dataDir) => expectFolded(await leftoversFolded({ dataDir })));
  });

  it('does nothing, and says so, on a database no gateway has migrated yet', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'leftover-downloads-empty-'));
    try {
      await (await openDatabase({ dataDir })).close();
      expect(await foldLeftoverDownloads({ dataDir })).toEqual({ rows: 0, updates: 0, seconds: 0, line: 'no table of download days yet (the gateway migrates at start)' });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipPostgres)('folds what a stopped gateway left on PostgreSQL, once', async () => {
    const copy = await createCatalogueCopy('postgres');
    try {
      expectFolded(await leftoversFolded({ url: copy.url! }));
    } finally {
      await copy.drop();
    }
  });
});
