// The gateway's plugins served by Yoga alone, as under `mesh dev` and `mesh start` (no node:http
// front): the pipeline runs in Yoga's hooks, and the GraphQL cache must still keep each account's
// results to itself. Here Yoga's own fetch entry point carries the requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createYoga } from 'graphql-yoga';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { provideDatabase } from '../../gateway/runtime.ts';
import useCatalogueContext from '../../gateway/plugins/catalogue-context.ts';
import useApiKeyAuth from '../../gateway/plugins/api-key-auth.ts';
import useRateLimit from '../../gateway/plugins/rate-limit.ts';
import useGraphqlCache from '../../gateway/plugins/graphql-cache.ts';
import useErrorShaping from '../../gateway/plugins/error-shaping.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';

let database: TestDatabase;
let yoga: ReturnType<typeof createYoga>;
let ownerKey: string;
let strangerKey: string;
let ownedSlug: string;
let iconStatements = 0;

beforeAll(async () => {
  delete process.env.REDIS_URL;
  database = await createCatalogueCopy('pglite', { onQuery: (sql) => void (/\bicons\b/.test(sql) && iconStatements++) });
  const { prisma } = database.db;
  provideDatabase(database.db);
  ownerKey = (await createApiKey(prisma, { accountName: 'yoga-owner' })).key;
  strangerKey = (await createApiKey(prisma, { accountName: 'yoga-stranger' })).key;
  ownedSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } })).slug;
  await grantIcons(prisma, 'yoga-owner', [ownedSlug]);
  yoga = createYoga({
    schema: createCatalogueSchema(),
    plugins: [
      useCatalogueContext({ urls: { svgUrl: 'https://cdn.example/{prefix}/{name}.svg', pageUrl: 'https://example/{locale}/icons/{slug}', defaultLocale: 'en' } }),
      useErrorShaping(),
      useApiKeyAuth(),
      useRateLimit({ store: 'memory' }),
      useGraphqlCache({ seconds: 30 }),
    ],
  });
});
afterAll(async () => {
  await database?.drop();
});

async function ask(key: string, query: string) {
  const response = await yoga.fetch(`http://yoga.test/graphql?query=${encodeURIComponent(query)}`, { headers: { 'x-api-key': key } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GraphQL through Yoga alone', () => {
  it('caches an owner\'s premium markup for the owner only, never for another account', async () => {
    const query = `{ icon(ref: "${ownedSlug}") { slug premium svg } }`;
    const first = await ask(ownerKey, query);
    expect(first.text).toMatch(/"svg":"<svg/);
    const afterFirst = iconStatements;
    const again = await ask(ownerKey, query);
    expect(again.text).toBe(first.text);
    expect(iconStatements).toBe(afterFirst); // from the cache
    const stranger = await ask(strangerKey, query);
    expect(stranger.text).not.toContain('<svg');
    expect(stranger.text).toContain('FORBIDDEN');
  });

  it('still refuses a request without a key, and marks GraphQL responses private', async () => {
    const refused = await yoga.fetch('http://yoga.test/graphql?query=%7Bcategories%7Bslug%7D%7D');
    expect(refused.status).toBe(401);
    const ok = await ask(ownerKey, '{ categories { slug } }');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
  });
});
