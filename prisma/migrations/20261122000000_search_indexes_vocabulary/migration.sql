-- Hand-written: what `search` (resolvers/catalogue/search/) needs besides the trigram index
-- of the init migration. Prisma's schema diff does not see any of it (partial indexes, a
-- materialized view and its index), so schema.prisma needs no change and nothing shows up
-- as drift.

-- Full-text index of the generated search document. Partial (published only): search always
-- filters on `published`, and a partial index is not something Prisma's differ tries to drop.
CREATE INDEX "icons_search_idx" ON "icons" USING GIN ("search") WHERE "published";

-- Whole-name equality and prefix (`arrow l` -> `Arrow Left`) on the lower-cased display name.
-- text_pattern_ops so LIKE 'prefix%' can use it whatever the database collation. It covers
-- what ranking names by prefix reads (name, popularity, id): 7,000 names start with `arrow`
-- on the full catalogue, and an index-only scan ranks them without visiting the table.
CREATE INDEX "icons_search_name_idx" ON "icons" (lower("name") text_pattern_ops) INCLUDE ("name", "popularity", "id") WHERE "published";

-- The search vocabulary: every lexeme of the published icons' search documents and the
-- number of icons it occurs in. Typo correction looks up which one-edit variants of a token
-- are real words, and how common they are. ts_stat computes the same at query time but takes
-- about a second on the full catalogue, hence a materialized view. It is not maintained
-- automatically: the importer refreshes it after writing sets (refreshSearchData in
-- prisma/import/refresh-search.ts). A stale vocabulary only weakens typo
-- correction: exact and prefix matching read the icons themselves.
CREATE MATERIALIZED VIEW "search_words" AS
  SELECT u.lexeme AS "word", count(*)::integer AS "ndoc"
  FROM "icons" i CROSS JOIN LATERAL unnest(i."search") AS u
  WHERE i."published"
  GROUP BY u.lexeme;

-- Unique, so the view can be refreshed CONCURRENTLY; text_pattern_ops also serves LIKE 'prefix%'.
CREATE UNIQUE INDEX "search_words_word_key" ON "search_words" ("word" text_pattern_ops);
