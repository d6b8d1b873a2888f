-- Downloads counted from real use (issue 14, item 8). The import used to derive `downloads`
-- and `popularity` from a hash of the icon's name: numbers with no signal behind them. Now the
-- gateway counts every file and single-icon markup it delivers (the download-counts plugin),
-- and `popularity` blends the recent downloads with a prior from the catalogue itself.

-- 1. Counts start at 0: the derived numbers are dropped (a new column with a default rewrites
--    nothing; the indexes on the old one go with it and are made again below).
ALTER TABLE "icons" DROP COLUMN "downloads";
ALTER TABLE "icons" ADD COLUMN "downloads" INTEGER NOT NULL DEFAULT 0;

-- 2. The concept of a name: its words without the words that only say a style or a variant
--    number, distinct and sorted ("Home Outline 2" -> "home"); all its words when each is such a
--    word. resolvers/catalogue/similar.ts `conceptOf` is the same rule (a test compares them);
--    the style words are prisma/import/styles.ts STYLE_NAME_WORDS.
CREATE FUNCTION "icon_concept"(name TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH words AS (
    SELECT DISTINCT w FROM unnest(regexp_split_to_array(lower(name), '[^[:alnum:]]+')) AS w WHERE w <> ''
  ), concept AS (
    SELECT w FROM words
    WHERE w <> ALL (ARRAY['bold', 'broken', 'color', 'colour', 'duotone', 'fill', 'filled', 'light', 'linear',
      'normal', 'outline', 'outlined', 'regular', 'round', 'rounded', 'sharp', 'solid', 'thin', 'twotone'])
      AND w !~ '^[0-9]+$'
  )
  SELECT coalesce(string_agg(w, ' ' ORDER BY w COLLATE "C"), '')
  FROM (SELECT w FROM concept UNION ALL SELECT w FROM words WHERE NOT EXISTS (SELECT 1 FROM concept)) AS chosen
$$;

-- 3. popularity = log10(1 + concept_breadth + recent_downloads), rounded to 4 decimals:
--    the prior is how many sets draw the icon's concept (each counts as one recent download),
--    so a house drawn by 150 sets starts above a one-off, and real downloads soon outweigh it.
--    Generated, so every writer (the counting gateways, the import's refresh) keeps it exact.
ALTER TABLE "icons" DROP COLUMN "popularity";
ALTER TABLE "icons"
  ADD COLUMN "recent_downloads" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "concept" TEXT NOT NULL GENERATED ALWAYS AS ("icon_concept"("name")) STORED,
  ADD COLUMN "concept_breadth" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "popularity" DOUBLE PRECISION NOT NULL
    GENERATED ALWAYS AS (round(log((1 + "concept_breadth" + "recent_downloads")::numeric), 4)::double precision) STORED;

-- The prior of the icons already there (the import's refresh keeps it from now on).
UPDATE "icons" i SET "concept_breadth" = c."sets"
FROM (SELECT "concept", count(DISTINCT "set_id")::int AS "sets" FROM "icons" WHERE "published" GROUP BY "concept") c
WHERE i."concept" = c."concept" AND i."concept_breadth" <> c."sets";

-- 4. The indexes the two dropped columns took with them.
CREATE INDEX "icons_popularity_id_idx" ON "icons"("popularity" DESC, "id");
CREATE INDEX "icons_downloads_id_idx" ON "icons"("downloads" DESC, "id");
CREATE INDEX "icons_category_id_popularity_id_idx" ON "icons"("category_id", "popularity" DESC, "id");
CREATE INDEX "icons_category_id_downloads_id_idx" ON "icons"("category_id", "downloads" DESC, "id");
CREATE INDEX "icons_style_popularity_id_idx" ON "icons"("style", "popularity" DESC, "id");
CREATE INDEX "icons_style_downloads_id_idx" ON "icons"("style", "downloads" DESC, "id");
CREATE INDEX "icons_search_name_idx" ON "icons" (lower("name") text_pattern_ops) INCLUDE ("name", "popularity", "id") WHERE "published";

-- 5. Downloads per day within the recent window, and the batches applied (exactly once). The
--    gateways' batches add to these narrow rows only; `folded` of a row's downloads are in the
--    icons' columns already. An update of an icons row costs about 0.2 ms on the full catalogue
--    (a wide row and 19 indexes), ten times an upsert here, so the icons are updated by a fold
--    every few minutes: once per icon downloaded meanwhile, not once per flush.
CREATE TABLE "icon_download_days" (
    "icon_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "downloads" INTEGER NOT NULL,
    "folded" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "icon_download_days_pkey" PRIMARY KEY ("icon_id","day")
);

CREATE TABLE "download_batches" (
    "id" TEXT NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "download_batches_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "icon_download_days_day_idx" ON "icon_download_days"("day");

-- What the next fold reads: the rows with downloads not folded yet.
CREATE INDEX "icon_download_days_unfolded_idx" ON "icon_download_days"("icon_id", "day") WHERE "folded" < "downloads";

CREATE INDEX "download_batches_applied_at_idx" ON "download_batches"("applied_at");

ALTER TABLE "icon_download_days" ADD CONSTRAINT "icon_download_days_icon_id_fkey" FOREIGN KEY ("icon_id") REFERENCES "icons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- 6. Planner statistics for the tables joined to the icons, which imports before this one left
--    unanalyzed (embedded PGlite has no autovacuum): an icon's tags were read by probing every
--    tag. The import's refresh analyzes them from now on (refresh-search.ts).
ANALYZE "icon_tags";
ANALYZE "tags";
ANALYZE "categories";
ANALYZE "icon_sets";
