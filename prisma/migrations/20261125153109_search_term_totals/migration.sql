-- Exact totals of the one-word searches most icons match (issue 12). Counting every match of a
-- word on most icons (`shape`, 218,011 icons) read the whole documents table: 140 ms, a third of
-- the database's time for the bench's search misses. The search data refresh counts them once
-- per catalogue version (prisma/import/refresh-search.ts); searches read them from memory.
CREATE TABLE "search_term_totals" (
    "token" TEXT NOT NULL,
    "icons" INTEGER NOT NULL,
    "catalogue_version" BIGINT NOT NULL,

    CONSTRAINT "search_term_totals_pkey" PRIMARY KEY ("token")
);

-- A database migrated to this has no totals yet: its search data is marked behind, so the next
-- refresh counts them (the embedded server's start, or any `cli import`, even of unchanged sets).
UPDATE "catalogue_state" SET "search_data_version" = 0;
