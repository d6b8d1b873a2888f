-- AlterTable
ALTER TABLE "icon_sets" ADD COLUMN     "common_height" INTEGER,
ADD COLUMN     "free_icon_count" INTEGER NOT NULL DEFAULT 0;

-- Filled for the sets already imported (written by hand); imports write them from then on.
UPDATE "icon_sets" s SET
  "free_icon_count" = (SELECT count(*)::int FROM "icons" i WHERE i."set_id" = s."id" AND i."published" AND NOT i."premium"),
  "common_height" = (SELECT i."height" FROM "icons" i WHERE i."set_id" = s."id" AND i."published" GROUP BY i."height" ORDER BY count(*) DESC, i."height" LIMIT 1);
