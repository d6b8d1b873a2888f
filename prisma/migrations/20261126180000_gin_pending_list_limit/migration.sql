-- Every GIN index keeps at most 64 kB of pending entries (PostgreSQL's default: 4 MB). A GIN
-- index buffers new entries in an unsorted pending list, and every scan of the index reads all of
-- it. Download folds rewrite the icons and search documents whose counts move (a popularity
-- change is not a HOT update: the sort indexes hold it), so the lists of these indexes filled to
-- their 4 MB and stayed there (about 415 pages each), and every search read them: on the full
-- catalogue a search for a word one icon has took 11.6 ms, 11.3 of them in the pending list of
-- icon_search_documents_search_idx, and 1,000 of the bench's queries one after another 16.7 s
-- against 7.5 s with the lists empty (bench/RESULTS.md, 2026-11-26 evening). At 64 kB a list is
-- at most 8 pages; the entries go into the index's tree in smaller batches, which costs folds
-- about a third more (five of 10,000 icons: 32.2 s against 23.8 s) and a demo import nothing.
ALTER INDEX "icons_colors_idx" SET (gin_pending_list_limit = 64);
ALTER INDEX "icons_name_trgm_idx" SET (gin_pending_list_limit = 64);
ALTER INDEX "icons_search_idx" SET (gin_pending_list_limit = 64);
ALTER INDEX "icon_search_documents_search_idx" SET (gin_pending_list_limit = 64);
ALTER INDEX "icon_search_documents_name_words_idx" SET (gin_pending_list_limit = 64);
ALTER INDEX "icon_search_documents_tagged_idx" SET (gin_pending_list_limit = 64);

-- What the lists hold now goes into the indexes (the limit applies from the next insert).
SELECT gin_clean_pending_list('icons_colors_idx'::regclass);
SELECT gin_clean_pending_list('icons_name_trgm_idx'::regclass);
SELECT gin_clean_pending_list('icons_search_idx'::regclass);
SELECT gin_clean_pending_list('icon_search_documents_search_idx'::regclass);
SELECT gin_clean_pending_list('icon_search_documents_name_words_idx'::regclass);
SELECT gin_clean_pending_list('icon_search_documents_tagged_idx'::regclass);
