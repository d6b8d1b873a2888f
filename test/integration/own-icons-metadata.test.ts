// Issue 46, item 4: a metadata entry that names no SVG file of its folder (a typo, a file
// removed) is reported, one warning line naming the entry, instead of being dropped silently;
// the icons still import (exit 0). Driven through the operator CLI on a fresh embedded database.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/commands.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

let work: string;
let folder: string;
const savedEnv = { ...process.env };

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line), isTTY: false, stderr: undefined });
  return { code, out, err };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'icon-metadata-'));
  folder = join(work, 'meta');
  await mkdir(folder);
  for (const file of ['home.svg', 'pencil-line.svg', 'Café Crème.svg']) await copyFile(join(PROJECT_ROOT, 'test/fixtures/own-icons', file), join(folder, file));
  await writeFile(
    join(folder, 'metadata.yaml'),
    [
      'icons:',
      '  home: { tags: [House] }',
      '  Café Crème: { category: Food }',
      '  pencil-lines: { tags: [Edit] }', // a typo of pencil-line
      '  Ghost Icon: { hidden: true }', // no such file
      '',
    ].join('\n'),
  );
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DATA_DIR = join(work, 'pglite');
});
afterAll(async () => {
  process.env = savedEnv;
  await rm(work, { recursive: true, force: true });
});

describe('metadata entries that name no SVG file', () => {
  it('are reported one warning line each, naming the entry, on a dry run and on the import, which still succeeds', async () => {
    for (const dryRun of [['--dry-run'], []]) {
      const { code, out, err } = await cli('import', '--source', folder, '--prefix', 'meta', ...dryRun);
      expect(code, err.join('\n')).toBe(0);
      const warnings = err.filter((line) => line.startsWith('warning:'));
      expect(warnings).toHaveLength(2);
      expect(warnings).toContainEqual(expect.stringMatching(/^warning: meta: metadata entry "pencil-lines" \(metadata\.yaml\) names no SVG file/));
      expect(warnings).toContainEqual(expect.stringMatching(/^warning: meta: metadata entry "Ghost Icon" \(metadata\.yaml\) names no SVG file/));
      // The entries that do name a file (by file name, accents and spaces included) are not reported.
      expect(warnings.join('\n')).not.toMatch(/"home"|Café/);
      expect(out.join('\n')).toMatch(/meta: 3 (would be|were) added/);
    }
  });
});
