-- The catalogue's version and how far its derived search data has caught up (the CatalogueState
-- model in schema.prisma; prisma/import/refresh-search.ts).
-- CreateTable
CREATE TABLE "catalogue_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "search_data_version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "catalogue_state_pkey" PRIMARY KEY ("id")
);

-- Hand-written: the one row (id 1; the code reads and writes only that one). A database
-- imported before this migration may hold a stale or empty vocabulary (an import
-- killed during its refresh left it so, and nothing recorded it): it starts one version behind,
-- so the next import, or the next embedded start, rebuilds its search data once.
INSERT INTO "catalogue_state" ("id", "version", "search_data_version")
SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM "icons") THEN 1 ELSE 0 END, 0;
