-- A category's or a style's page in each sort order as one index range (schema.prisma explains).
-- They replace the single-column indexes on category_id and style, which they begin with.
-- DropIndex
DROP INDEX "icons_category_id_idx";

-- DropIndex
DROP INDEX "icons_style_idx";

-- CreateIndex
CREATE INDEX "icons_category_id_popularity_id_idx" ON "icons"("category_id", "popularity" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_category_id_downloads_id_idx" ON "icons"("category_id", "downloads" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_category_id_published_at_id_idx" ON "icons"("category_id", "published_at" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_category_id_name_id_idx" ON "icons"("category_id", "name", "id");

-- CreateIndex
CREATE INDEX "icons_style_popularity_id_idx" ON "icons"("style", "popularity" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_style_downloads_id_idx" ON "icons"("style", "downloads" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_style_published_at_id_idx" ON "icons"("style", "published_at" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_style_name_id_idx" ON "icons"("style", "name", "id");
