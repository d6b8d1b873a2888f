-- The four sort orders of unfiltered lists as indexes of the published icons only, carrying the
-- colours and the license (issue 12). A page filtered by colour or license (or neither) walks its
-- sort order and checks those filters on the index entries alone (an index-only scan) instead of
-- fetching every entry's wide icon row: the pages of a colour that one icon in 50 has read about
-- 50 rows per icon shown, each from a different page of a 650 MB table. On the full catalogue,
-- the colour pages among 1,000 list URLs took 825 ms in all before, 385 ms with these indexes
-- (bench/RESULTS.md, 2026-11-25 afternoon). Published-only, they are also smaller than the
-- indexes they replace (30 MB against 38 MB for popularity). Partial indexes with INCLUDE
-- columns are beyond schema.prisma's syntax, like icons_premium_published_idx: they live here.
DROP INDEX "icons_popularity_id_idx";
DROP INDEX "icons_downloads_id_idx";
DROP INDEX "icons_published_at_id_idx";
DROP INDEX "icons_name_id_idx";

CREATE INDEX "icons_published_popularity_idx" ON "icons" ("popularity" DESC, "id") INCLUDE ("colors", "premium") WHERE "published";
CREATE INDEX "icons_published_downloads_idx" ON "icons" ("downloads" DESC, "id") INCLUDE ("colors", "premium") WHERE "published";
CREATE INDEX "icons_published_newest_idx" ON "icons" ("published_at" DESC, "id") INCLUDE ("colors", "premium") WHERE "published";
CREATE INDEX "icons_published_name_idx" ON "icons" ("name", "id") INCLUDE ("colors", "premium") WHERE "published";
