-- How often the sort orders of `popular` and `downloads` have moved (issue 12): the download fold
-- and the recent-window expiry increment it in the statement that changes the icons' counts. The
-- gateway's list index (resolvers/catalogue/list-index.ts) holds the sort orders in memory and
-- serves a page only when the page's rows were read at the catalogue version and order version
-- it was built at.
ALTER TABLE "catalogue_state" ADD COLUMN "order_version" BIGINT NOT NULL DEFAULT 0;
