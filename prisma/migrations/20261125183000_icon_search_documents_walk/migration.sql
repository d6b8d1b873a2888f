-- Two indexes that let a search rank a word most icons match without ranking every match
-- (issue 12; resolvers/catalogue/search/build-query.ts, walkedSegment). `uses` matches 111,351
-- icons and `precise` 217,743; ranking all of them took 130 and 250 ms on the full catalogue.
--
-- The relevance order within a tier: a page walks the documents in this order and stops early.
CREATE INDEX "icon_search_documents_rank_idx" ON "icon_search_documents" (char_length("name"), "popularity" DESC, "id");
-- The words of the name alone (the weight-A part of the search document), so the name tier's
-- rows are found without reading every match.
CREATE INDEX "icon_search_documents_name_words_idx" ON "icon_search_documents" USING GIN (to_tsvector('simple', "name"));
ANALYZE icon_search_documents;
