// `import --all` takes the sets that @iconify/json's index (collections.json) lists: its json/
// folder also keeps retired sets' files (emblemicons holds no icon), which an import would report
// as sets with nothing to import, failing every full import.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fullCollectionSetFiles } from '../../prisma/import/sources.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A package folder with these sets' files in json/, and an index of `listed` (none: no collections.json). */
async function packageWith(files: string[], listed?: string[]): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'iconify-json-'));
  await mkdir(join(dir, 'json'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ version: '2.2.535' }));
  for (const prefix of files) await writeFile(join(dir, 'json', `${prefix}.json`), JSON.stringify({ prefix, icons: {} }));
  if (listed) await writeFile(join(dir, 'collections.json'), JSON.stringify(Object.fromEntries(listed.map((prefix) => [prefix, { name: prefix }]))));
  return dir;
}

describe('the full collection', () => {
  it('is the sets its index lists, in prefix order, without the files of retired sets', async () => {
    const sets = await fullCollectionSetFiles(await packageWith(['mdi', 'emblemicons', 'akar-icons'], ['mdi', 'akar-icons']));
    expect(sets.map((set) => set.prefix)).toEqual(['akar-icons', 'mdi']);
  });

  it('is every file of a package without an index', async () => {
    const sets = await fullCollectionSetFiles(await packageWith(['mdi', 'emblemicons']));
    expect(sets.map((set) => set.prefix)).toEqual(['emblemicons', 'mdi']);
  });
});
