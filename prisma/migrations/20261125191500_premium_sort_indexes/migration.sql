-- The published premium icons in each sort order (issue 12), replacing their one index by id
-- (*_premium_icons_index), so that a page of `license=premium` alone is one index range, as a
-- category's or a style's is. Before, such a page walked the whole catalogue's sort index for
-- the few premium icons, which premium icons' sort keys put at one end: none has downloads, so
-- `license=premium&sort=downloads` read 309,237 entries (156 ms on the full catalogue) for a
-- page of 24. Premium icons are a few per cent of the catalogue (8,706 of 380,909): four small
-- indexes. Counting them, or reading them with other filters, uses any of them.
DROP INDEX "icons_premium_published_idx";

CREATE INDEX "icons_premium_popularity_idx" ON "icons" ("popularity" DESC, "id") WHERE "premium" AND "published";
CREATE INDEX "icons_premium_downloads_idx" ON "icons" ("downloads" DESC, "id") WHERE "premium" AND "published";
CREATE INDEX "icons_premium_newest_idx" ON "icons" ("published_at" DESC, "id") WHERE "premium" AND "published";
CREATE INDEX "icons_premium_name_idx" ON "icons" ("name", "id") WHERE "premium" AND "published";
