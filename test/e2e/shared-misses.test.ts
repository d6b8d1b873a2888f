// A burst of requests for one response that is not cached yet costs one execution of its
// operation, not one per request: the database sees the statements of a single request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { listIndexOf } from '../../resolvers/catalogue/list-index/index.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

describe.skipIf(Boolean(await postgresUnavailable()))('concurrent misses of one response', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let key: string;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres', { onQuery: (sql) => statements.push(sql) });
    key = (await createApiKey(database.db.prisma, { accountName: 'shared-misses' })).key;
    gateway = await startGatewayInProcess(database.db, { env: { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' } });
    // The list index is read once, in the background, from the first list or search request on: read it
    // now, so that its statements are not counted as a request's.
    await listIndexOf(database.db.reads).build();
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  const get = (path: string) => fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } });
  const catalogueStatements = () => statements.filter((sql) => !/api_keys|LOCK TABLE|BEGIN|COMMIT/i.test(sql)).length;

  it('share one execution, and every request gets the response', async () => {
    await get('/icons?per_page=1&page=777'); // the key's record, and anything a first request loads once
    let before = catalogueStatements();
    expect((await get('/icons?per_page=3&page=2')).status).toBe(200);
    const perRequest = catalogueStatements() - before;
    expect(perRequest).toBeGreaterThan(0);

    before = catalogueStatements();
    // Another session locks the icons until all 20 requests are in, so none finishes early.
    let sent!: Promise<Response[]>;
    await database.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('LOCK TABLE icons IN ACCESS EXCLUSIVE MODE');
      sent = Promise.all(Array.from({ length: 20 }, () => get('/icons?per_page=3&page=3')));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
    const responses = await sent;
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(new Set(bodies).size).toBe(1);
    expect(catalogueStatements() - before).toBe(perRequest);
  });
});
