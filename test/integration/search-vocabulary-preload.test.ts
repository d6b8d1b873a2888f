// The gateway loads the search vocabulary as it starts (gateway/front/main.ts), so that the first
// search does not wait for it (the first search after a start took 150 to 260 ms on the full
// catalogue, the next ones 10 to 20): after the preload, a search reads its page, not the vocabulary.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { preloadSearchVocabulary, searchIconIds } from '../../resolvers/catalogue/search/index.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';

const statements: string[] = [];
const readsVocabulary = () => statements.some((sql) => /\bsearch_words\b/.test(sql));
let database: TestDatabase;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite', { onQuery: (sql) => void statements.push(sql) });
});
afterAll(async () => {
  await database?.drop();
});

it('loads the vocabulary once, before the first search, which then reads only its page', async () => {
  statements.length = 0;
  await preloadSearchVocabulary(database.db.reads);
  expect(readsVocabulary()).toBe(true);
  statements.length = 0;
  const page = await searchIconIds(database.db.reads, { q: 'home', page: 1, perPage: 5 });
  expect(page.ids).toHaveLength(5);
  expect(statements.length).toBeGreaterThan(0);
  expect(readsVocabulary()).toBe(false);
});
