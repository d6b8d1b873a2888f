// Issue 46: a catalogue's own icons, driven through the operator CLI as an operator runs it, on
// a fresh embedded database: a folder of good and bad SVG files imports its good ones cleaned
// and reports each bad one; a dry run of a removal writes nothing; the removal, a change and a
// rename apply as a difference (ids, slugs and owners kept); export round-trips through import;
// grants of a whole set reach icons added later; --strict and an all-bad folder fail.
import { cp, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../prisma/database.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { embeddedWorkspace, runCliCaptured } from '../helpers/cli.ts';

let folder: string;

async function cli(...argv: string[]) {
  const { code, out, err } = await runCliCaptured(...argv);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function query<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  const db = await openDatabase({ dataDir: process.env.PGLITE_DATA_DIR! });
  try {
    return await db.prisma.$queryRawUnsafe<T[]>(sql, ...params);
  } finally {
    await db.close();
  }
}

interface IconRow {
  id: number;
  slug: string;
  source_name: string;
  name: string;
  published: boolean;
  body: string;
  body_digest: string;
  colors: string[];
  premium: boolean;
  width: number;
  height: number;
}

const icons = (prefix: string) =>
  query<IconRow>(
    `SELECT i.id, i.slug, i.source_name, i.name, i.published, i.body, i.body_digest, i.colors, i.premium, i.width, i.height
     FROM icons i JOIN icon_sets s ON s.id = i.set_id WHERE s.prefix = $1 ORDER BY i.source_name`,
    prefix,
  );

const BAD_FILES = [
  'billion-laughs.svg',
  'empty.svg',
  'event-handler.svg',
  'external-ref.svg',
  'foreign-object.svg',
  'huge.svg',
  'javascript-link.svg',
  'not-xml.svg',
  'raster.svg',
  'script.svg',
];

const workspace = embeddedWorkspace('icon-own-', async (work) => {
  folder = join(work, 'acme');
  await cp(join(PROJECT_ROOT, 'test/fixtures/own-icons'), folder, { recursive: true });
  // Over the 5 MB limit: a drawing padded with a comment, so only its size is wrong.
  await writeFile(join(folder, 'huge.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><!--${'x'.repeat(5 * 1024 * 1024)}--><path d="M0 0h24v24H0z"/></svg>`);
});

describe('a folder of SVG files', () => {
  it('imports the good files cleaned and reports each bad one on a line of its own, exit 0', async () => {
    const { code, out, err } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT');
    expect(code, err).toBe(0);
    for (const file of BAD_FILES) expect(err).toMatch(new RegExp(`^warning: acme: rejected ${file.replace('.', '\\.')}: .+$`, 'm'));
    expect(err.split('\n').filter((line) => line.startsWith('warning:'))).toHaveLength(BAD_FILES.length);
    expect(out).toContain('acme: 6 were added');

    const rows = await icons('acme');
    expect(rows.map((row) => row.source_name)).toEqual(['cafe-creme', 'home', rows[2]!.source_name, 'offset-box', 'pencil-line', 'sunset-palette']);
    expect(rows[2]!.source_name).toMatch(/^icon-[0-9a-f]{8}$/);
    const byName = new Map(rows.map((row) => [row.source_name, row]));
    // One colour (fill="#000", "#333", stroke="#000") becomes currentColor; the palette stays.
    for (const name of ['home', 'cafe-creme', 'pencil-line', 'offset-box']) {
      expect(byName.get(name)!.body).toContain('currentColor');
      expect(byName.get(name)!.body).not.toMatch(/#000|#333/);
      expect(byName.get(name)!.colors).toEqual(['monochrome']);
    }
    const sunset = byName.get('sunset-palette')!;
    expect(sunset.body).toContain('#ffd200');
    expect(sunset.colors[0]).toBe('multicolor');
    // Ids carry the icon's own prefix, and references follow them.
    expect(sunset.body).toContain('id="acme-sunset-palette-0"');
    expect(sunset.body).toContain('url(#acme-sunset-palette-0)');
    expect([sunset.width, sunset.height]).toEqual([32, 32]);
    // A viewBox away from 0 0 keeps its box: the body is moved into 0 0 24 24.
    expect(byName.get('offset-box')!.body).toContain('translate(-100 -50)');
    // Display names as the files spell them, metadata over them.
    expect(byName.get('cafe-creme')!.name).toBe('Café Crème');
    expect(rows[2]!.name).toBe('Ключ');
    expect(byName.get('pencil-line')!.name).toBe('Pencil');
    // Nothing of a bad file reached the database.
    expect(rows.map((row) => row.body).join('')).not.toMatch(/script|onclick|javascript|foreignObject|<image|tracker\.example|lol/i);

    const [set] = await query<{ license_spdx: string; name: string; author: string }>(`SELECT license_spdx, name, author FROM icon_sets WHERE prefix = 'acme'`);
    expect(set).toEqual({ license_spdx: 'MIT', name: 'Fixture Icons', author: 'Icon Catalogue tests' });
    const [tagged] = await query<{ tags: string[]; category_name: string; keywords: string[] }>(
      `SELECT tag_names AS tags, category_name, keywords FROM icons WHERE slug = 'acme-home'`,
    );
    expect(tagged).toMatchObject({ category_name: 'Navigation' });
    expect(tagged!.tags).toEqual(expect.arrayContaining(['House', 'Building']));
    expect(tagged!.keywords).toEqual(expect.arrayContaining(['start', 'main page']));
  });

  it('a second import of the same folder changes nothing', async () => {
    const before = await icons('acme');
    const { code, out } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT');
    expect(code).toBe(0);
    expect(out).toContain('unchanged');
    expect(await icons('acme')).toEqual(before);
  });

  it('grant --set gives an account every icon of the set, and icons added later', async () => {
    const granted = await cli('grant', '--account', 'buyer', '--set', 'acme');
    expect(granted.code, granted.err).toBe(0);
    const owned = () =>
      query<{ source_name: string }>(
        `SELECT i.source_name FROM ownership o JOIN accounts a ON a.id = o.account_id JOIN icons i ON i.id = o.icon_id WHERE a.name = 'buyer' ORDER BY 1`,
      );
    expect(await owned()).toHaveLength(6);
    await writeFile(join(folder, 'star.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="m12 2 3 7h7l-6 4 2 8-6-5-6 5 2-8-6-4h7z"/></svg>');
    expect((await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT')).code).toBe(0);
    expect((await owned()).map((row) => row.source_name)).toContain('star');
  });

  it('a dry run of a removal and a change says what would happen and writes nothing', async () => {
    const before = await icons('acme');
    await unlink(join(folder, 'home.svg'));
    await writeFile(join(folder, 'pencil-line.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="none" stroke="#000" stroke-width="2" d="M4 20 20 4"/></svg>');
    const { code, out } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT', '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain('acme: 0 would be added, 1 changed, 1 removed, 0 renamed, 10 rejected');
    expect(out).toMatch(/^ {2}removed: home$/m);
    expect(out).toMatch(/^ {2}changed: pencil-line$/m);
    expect(out).toContain('Dry run: nothing was written.');
    expect(await icons('acme')).toEqual(before);
  });

  it('the import applies it: the removed icon is unpublished, the changed one gets a new body and file version, the rest keep their ids', async () => {
    const before = new Map((await icons('acme')).map((row) => [row.source_name, row]));
    const { code, out } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT');
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}removed: home$/m);
    const after = new Map((await icons('acme')).map((row) => [row.source_name, row]));
    expect(after.get('home')).toMatchObject({ published: false, id: before.get('home')!.id, slug: 'acme-home' });
    const pencil = after.get('pencil-line')!;
    expect(pencil.id).toBe(before.get('pencil-line')!.id);
    expect(pencil.body).not.toBe(before.get('pencil-line')!.body);
    expect(pencil.body_digest).not.toBe(before.get('pencil-line')!.body_digest);
    expect(after.get('sunset-palette')).toEqual(before.get('sunset-palette'));
    const [set] = await query<{ icon_count: number; free_icon_count: number; common_height: number | null }>(`SELECT icon_count, free_icon_count, common_height FROM icon_sets WHERE prefix = 'acme'`);
    expect(set!.icon_count).toBe(6);
    // Iconify's total and height, written with the set: the removed icon no longer counts.
    const published = [...after.values()].filter((row) => row.published);
    expect(set!.free_icon_count).toBe(published.filter((row) => !row.premium).length);
    expect(published.filter((row) => row.height === set!.common_height).length).toBeGreaterThanOrEqual(published.length / 2);
  });

  it('a rename declared in the metadata keeps the icon: same id, slug and owners', async () => {
    const before = (await icons('acme')).find((row) => row.source_name === 'cafe-creme')!;
    await rename(join(folder, 'Café Crème.svg'), join(folder, 'coffee.svg'));
    const metadata = await readFile(join(folder, 'metadata.yaml'), 'utf8');
    await writeFile(join(folder, 'metadata.yaml'), `${metadata}renames:\n  cafe-creme: coffee\n`);
    const { code, out } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT');
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}renamed: cafe-creme -> coffee$/m);
    // The old name keeps answering, as an alias of the new one.
    expect(out).toMatch(/^ {2}aliases: 1 were added, 0 changed, 0 removed$/m);
    expect(out).toMatch(/^ {2}aliases added: cafe-creme$/m);
    const [words] = await query<{ keywords: string[] }>(`SELECT keywords FROM icons WHERE slug = 'acme-cafe-creme'`);
    expect(words!.keywords).toEqual(expect.arrayContaining(['cafe', 'creme'])); // its old name's words find it, as an alias's do
    const coffee = (await icons('acme')).find((row) => row.source_name === 'coffee')!;
    expect(coffee).toMatchObject({ id: before.id, slug: 'acme-cafe-creme', published: true, name: 'Coffee' });
    const owners = await query<{ name: string }>(`SELECT a.name FROM ownership o JOIN accounts a ON a.id = o.account_id WHERE o.icon_id = $1`, before.id);
    expect(owners.map((row) => row.name)).toContain('buyer');
  });

  it('revoke --set takes the set back', async () => {
    const { code, out } = await cli('revoke', '--account', 'buyer', '--set', 'acme');
    expect(code).toBe(0);
    expect(out).toMatch(/Revoked the set "acme" from "buyer": \d+ icons/);
    expect(await query(`SELECT 1 FROM ownership o JOIN accounts a ON a.id = o.account_id WHERE a.name = 'buyer'`)).toHaveLength(0);
    expect(await query(`SELECT 1 FROM set_grants`)).toHaveLength(0);
  });
});

describe('export', () => {
  it('writes IconifyJSON that imports back to the same icons', async () => {
    const file = join(workspace.dir, 'acme.json');
    const exported = await cli('export', '--set', 'acme', '--out', file);
    expect(exported.code, exported.err).toBe(0);
    const json = JSON.parse(await readFile(file, 'utf8'));
    expect(json.prefix).toBe('acme');
    expect(Object.keys(json.icons)).not.toContain('home');
    expect(json.aliases).toEqual({ 'cafe-creme': { parent: 'coffee' } });
    const stdout = await cli('export', '--set', 'acme');
    expect(JSON.parse(stdout.out)).toEqual(json);

    const imported = await cli('import', '--source', file, '--prefix', 'acme-copy');
    expect(imported.code, imported.err).toBe(0);
    const strip = (rows: IconRow[]) =>
      rows.filter((row) => row.published).map(({ source_name, name, body, colors, premium, width, height }) => ({ source_name, name, body, colors, premium, width, height }));
    const copy = strip(await icons('acme-copy'));
    const original = strip(await icons('acme'));
    // Ids inside bodies were made unique per icon under the original prefix; a copy keeps them as they are.
    expect(copy).toEqual(original);
    // And a re-import of the export into its own set changes nothing.
    const again = await cli('import', '--source', file, '--prefix', 'acme', '--dry-run');
    expect(again.out).toContain('acme: 0 would be added, 0 changed, 0 removed');
    expect(again.out).not.toContain('aliases');
    // Without the alias, the same file would take it away, and the dry run says so.
    await writeFile(file, JSON.stringify({ ...json, aliases: {} }));
    const without = await cli('import', '--source', file, '--prefix', 'acme', '--dry-run');
    expect(without.out).toMatch(/^ {2}aliases: 0 would be added, 0 changed, 1 removed$/m);
    expect(without.out).toMatch(/^ {2}aliases removed: cafe-creme$/m);
  });

  it('an unknown set is an error of one line, exit 1', async () => {
    const { code, err } = await cli('export', '--set', 'nope');
    expect(code).toBe(1);
    expect(err).toBe('error: No set "nope" in the catalogue');
  });
});

describe('failures', () => {
  it('--strict refuses a folder with rejected files and writes nothing', async () => {
    const before = await icons('acme');
    await writeFile(join(folder, 'new-one.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1 1h2v2H1z"/></svg>');
    const { code, err } = await cli('import', '--source', folder, '--prefix', 'acme', '--license', 'MIT', '--strict');
    expect(code).toBe(1);
    expect(err).toContain('--strict and 10 files rejected: nothing written');
    expect(await icons('acme')).toEqual(before);
  });

  it('a folder where nothing can be imported exits 1 and leaves the set as it was', async () => {
    const bad = join(workspace.dir, 'bad');
    await cp(join(PROJECT_ROOT, 'test/fixtures/own-icons'), bad, { recursive: true });
    for (const name of ['home.svg', 'Sunset Palette.svg', 'pencil-line.svg', 'offset-box.svg', 'Café Crème.svg', 'Ключ.svg', 'metadata.yaml']) await unlink(join(bad, name));
    const { code, err } = await cli('import', '--source', bad, '--prefix', 'acme-bad');
    expect(code).toBe(1);
    expect(err).toContain('acme-bad: nothing could be imported (9 files rejected)');
    expect(await query(`SELECT 1 FROM icon_sets WHERE prefix = 'acme-bad'`)).toHaveLength(0);
  });

  it('usage errors exit 2', async () => {
    expect((await cli('import', '--source', folder)).code).toBe(2);
    expect((await cli('import', '--source', folder, '--prefix', 'Bad Prefix')).code).toBe(2);
    expect((await cli('import', '--prefix', 'acme')).code).toBe(2);
    expect((await cli('export')).code).toBe(2);
  });
});
