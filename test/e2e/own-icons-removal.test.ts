// Issue 46, item 4, over HTTP: after a re-import whose folder lost a file, that icon of the
// catalogue's own set is gone from every address a client has (the single icon by slug and by
// id, its SVG, PNG and preview files, the lists, search and batches: 404 in the error body), while
// the set's other icons stay. On a copy of the demo catalogue in PostgreSQL (PGlite when it is
// not reachable, except under CI=true), imported through the importer the CLI drives.
import { cp, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { importSets } from '../../prisma/import/import-sets.ts';
import { loadFolderSet } from '../../prisma/import/own-sources.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { pollUntil } from '../helpers/wait.ts';

const PREFIX = 'acme';
const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };

let work: string;
let folder: string;
let database: TestDatabase;
let gateway: RunningGateway;
let key: string;

/** The response caches down to a second, so a catalogue change shows within a test's wait. */
function shortCaches(config: string): string {
  const edited = config.replace(/cache: \{ seconds: \d+, scope: (shared|account) \}/g, 'cache: { seconds: 1, scope: $1 }').replace('cacheSeconds: 60            # free', 'cacheSeconds: 1            # free');
  expect(edited.match(/cache: \{ seconds: 1,/g)?.length).toBeGreaterThan(5);
  expect(edited).toContain('cacheSeconds: 1            # free');
  return edited;
}

function importFolder() {
  return importSets(database.db.prisma, [{ prefix: PREFIX, load: () => loadFolderSet({ prefix: PREFIX, folder }) }], { optionsFor: () => ({ premium: false }) });
}

async function get(path: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text };
}

const slugsOf = (text: string) => (JSON.parse(text).data as { slug: string }[]).map((icon) => icon.slug);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'own-icons-removal-'));
  folder = join(work, PREFIX);
  await cp(join(PROJECT_ROOT, 'test/fixtures/own-icons'), folder, { recursive: true });
  database = await createCatalogueCopy((await postgresUnavailable()) ? 'pglite' : 'postgres');
  const first = await importFolder();
  expect(first.sets[0]!.status).toBe('imported');
  key = (await createApiKey(database.db.prisma, { accountName: 'removal-reader', hourlyLimit: 100_000 })).key;
  gateway = await withConfig(shortCaches, (dir) => startGatewayInProcess(database.db, { dir, env }));
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
  await rm(work, { recursive: true, force: true });
});

describe('a file removed from an own set, then re-imported', () => {
  it('takes its icon off every address (404 in the error body) and leaves the others', async () => {
    const home = await database.db.prisma.icon.findFirstOrThrow({ where: { set: { prefix: PREFIX }, sourceName: 'home' } });
    const kept = await database.db.prisma.icon.findFirstOrThrow({ where: { set: { prefix: PREFIX }, sourceName: 'pencil-line' } });
    const addresses = [`/icons/${home.slug}`, `/icons/${home.id}`, `/svg/${PREFIX}/home.svg`, `/png/${PREFIX}/home.png`, `/preview/${PREFIX}/home.png`];
    for (const path of addresses) expect((await get(path)).status, path).toBe(200);
    expect(slugsOf((await get(`/icons?set=${PREFIX}&per_page=100`)).text)).toContain(home.slug);
    expect(slugsOf((await get(`/search?q=home&set=${PREFIX}`)).text)).toContain(home.slug);

    await unlink(join(folder, 'home.svg'));
    const again = await importFolder();
    expect(again.sets[0]!.plan?.removed).toEqual(['home']);
    expect(again.sets[0]!.unpublished).toBe(1);

    // Within the response caches' second: waited for, not slept.
    const single = await pollUntil(() => get(`/icons/${home.slug}`), (response) => response.status !== 200);
    expect(single.status).toBe(404);
    expect(JSON.parse(single.text)).toEqual({ error: { code: 404, message: expect.stringContaining(home.slug) } });
    for (const path of addresses) {
      const response = await pollUntil(() => get(path), (answer) => answer.status !== 200);
      expect(response.status, path).toBe(404);
      expect(response.type, path).toMatch(/^application\/json/);
      expect(JSON.parse(response.text), path).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
    const list = await pollUntil(() => get(`/icons?set=${PREFIX}&per_page=100`), (response) => !slugsOf(response.text).includes(home.slug));
    expect(slugsOf(list.text)).not.toContain(home.slug);
    expect(slugsOf(list.text)).toContain(kept.slug);
    const found = await pollUntil(() => get(`/search?q=home&set=${PREFIX}`), (response) => !slugsOf(response.text).includes(home.slug));
    expect(slugsOf(found.text)).not.toContain(home.slug);
    const batch = JSON.parse((await get(`/icons?slugs=${home.slug},${kept.slug}`)).text);
    expect(batch.data.map((icon: { slug: string }) => icon.slug)).toEqual([kept.slug]);
    expect(batch.meta.missing).toEqual([home.slug]);
    // The row stays (ids, owners and download counts survive a return of the file); it is only unpublished.
    expect((await database.db.prisma.icon.findUniqueOrThrow({ where: { id: home.id } })).published).toBe(false);
    for (const path of [`/icons/${kept.slug}`, `/svg/${PREFIX}/pencil-line.svg`, `/preview/${PREFIX}/pencil-line.png`]) expect((await get(path)).status, path).toBe(200);
  });
});
