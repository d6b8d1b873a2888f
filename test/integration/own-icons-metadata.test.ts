// Issue 46, item 4: a metadata entry that names no SVG file of its folder (a typo, a file
// removed) is reported, one warning line naming the entry, instead of being dropped silently;
// the icons still import (exit 0). Driven through the operator CLI on a fresh embedded database.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { embeddedWorkspace, runCliCaptured } from '../helpers/cli.ts';

const cli = runCliCaptured;
let folder: string;

embeddedWorkspace('icon-metadata-', async (work) => {
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
