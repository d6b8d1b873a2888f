// `npm run dev` reloads by itself (issue 50, point 1): run as package.json says it, from a copy
// of .meshrc.yaml and of the operations folder in a temporary folder, over a real socket. A
// route added to the file answers; an operation file touched is one reload, logged; a config
// that does not validate is one error line naming the key, and the routes before it still
// answer. Waits poll the server and its output, with generous deadlines, never fixed sleeps.
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { CATEGORY_ICONS_ROUTE, edit, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayProcess } from '../helpers/gateway.ts';
import { pollUntil, waitFor } from '../helpers/wait.ts';

/** `npm run dev` as node arguments: package.json's script, its `tsx` run by tsx's own CLI file. */
async function devNodeArgs(): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command, ...args] = (scripts.dev ?? '').split(/\s+/);
  if (command !== 'tsx') throw new Error(`package.json's dev script no longer runs tsx: ${scripts.dev}`);
  return [join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ...args];
}

const DEADLINE = { timeoutMs: 60_000, intervalMs: 100 };

describe.skipIf(await postgresUnavailable())('npm run dev: reloads when the config or an operation changes', () => {
  let database: TestDatabase;
  let key: string;
  let operations: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    key = (await createApiKey(database.db.prisma, { accountName: `dev-reload-${Date.now()}` })).key;
    // The operations the copied config reads: a copy too, so that touching one leaves the project's alone.
    operations = await mkdtemp(join(tmpdir(), 'dev-reload-operations-'));
    await cp(join(PROJECT_ROOT, 'gateway', 'operations'), operations, { recursive: true });
  });
  afterAll(async () => {
    await database?.drop();
    if (operations) await rm(operations, { recursive: true, force: true });
  });

  it('serves a route added to .meshrc.yaml, reloads on an operation file touched, keeps serving through a broken config', async () => {
    const category = await database.db.prisma.category.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const ownOperations = (config: string) => config.replaceAll('operations: gateway/operations\n', `operations: ${operations}\n`);
    await withConfig(ownOperations, async (dir) => {
      const file = join(dir, '.meshrc.yaml');
      const gateway = await startGatewayProcess({ DATABASE_URL: database.url!, GATEWAY_CONFIG_DIR: dir, LOG_LEVEL: 'warn', REDIS_URL: '' }, await devNodeArgs());
      const get = (path: string) => fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } }).then(async (response) => ({ status: response.status, body: await response.text() }));
      const lines = (pattern: RegExp) => gateway.output().split('\n').filter((line) => pattern.test(line));
      try {
        expect(gateway.output()).toMatch(/SIGHUP or a change of the config reloads it/);
        const route = `/categories/${category.slug}/icons`;
        expect((await get(route)).status).toBe(404);
        const original = await readFile(file, 'utf8');

        // A route added: it answers, after one reload line that names the file.
        const withRoute = edit(original, [CATEGORY_ICONS_ROUTE]);
        await writeFile(file, withRoute);
        const added = await pollUntil(() => get(route), (answer) => answer.status === 200, DEADLINE);
        expect(added.status).toBe(200);
        expect(JSON.parse(added.body).data.length).toBeGreaterThan(0);
        await waitFor(() => lines(/Reloaded \S+ \(\.meshrc\.yaml changed\)/).length > 0, 'the reload line', DEADLINE);
        expect(lines(/Reloaded \S+ \(\.meshrc\.yaml changed\)/)[0]).toContain(file);

        // An operation file touched: one more reload, named by the file.
        const touched = new Date();
        await utimes(join(operations, 'ListIcons.graphql'), touched, touched);
        await waitFor(() => lines(/Reloaded \S+ \(ListIcons\.graphql changed\)/).length > 0, 'the reload of a touched operation', DEADLINE);
        expect((await get(route)).status).toBe(200);

        // A config that does not validate: one error line naming the key; what served still does.
        await writeFile(file, edit(withRoute, [['hourlyLimit: 1000', 'hourlyLimit: -5']]));
        const failed = /Reload \(\.meshrc\.yaml changed\) failed; still serving the previous config: /;
        await waitFor(() => lines(failed).length > 0, 'the failed reload line', DEADLINE);
        expect(lines(failed)).toHaveLength(1);
        expect(lines(failed)[0]).toMatch(/plugins\[\\"@icon-catalogue\/gateway\\"\]\.plugins\[\d+\]\[\\"rate-limit\\"\]\.hourlyLimit: /);
        expect((await get(route)).status).toBe(200);
        expect((await get('/categories')).status).toBe(200);
        expect((await get('/readyz')).status).toBe(200);
      } finally {
        await gateway.close();
      }
    });
  });
});
