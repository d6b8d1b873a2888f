-- CreateExtension (hand-written: trigram indexes for prefix and typo-tolerant search)
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "icon_sets" (
    "id" SERIAL NOT NULL,
    "prefix" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "author_url" TEXT,
    "license_title" TEXT NOT NULL,
    "license_spdx" TEXT,
    "license_url" TEXT,
    "premium" BOOLEAN NOT NULL DEFAULT false,
    "multicolor" BOOLEAN NOT NULL DEFAULT false,
    "version" TEXT NOT NULL,
    "source_digest" TEXT NOT NULL,
    "icon_count" INTEGER NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "icon_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- Hand-written: the full-text document of an icon. A generated column needs an IMMUTABLE
-- expression and array_to_string is only STABLE, so the expression lives in a function.
-- The 'simple' configuration keeps every word (English stop words include up, down, off, on,
-- which icon names need) and does not stem; search adds prefix and trigram matching on top.
CREATE FUNCTION "icon_search_document"(name TEXT, keywords TEXT[], tag_names TEXT[], category_name TEXT)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', coalesce(name, '')), 'A')
      || setweight(to_tsvector('simple', coalesce(array_to_string(keywords, ' '), '')), 'B')
      || setweight(to_tsvector('simple', coalesce(array_to_string(tag_names, ' '), '')), 'B')
      || setweight(to_tsvector('simple', coalesce(category_name, '')), 'C')
$$;

-- CreateTable
CREATE TABLE "icons" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "set_id" INTEGER NOT NULL,
    "source_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category_id" INTEGER NOT NULL,
    "style" TEXT NOT NULL,
    "colors" TEXT[],
    "premium" BOOLEAN NOT NULL DEFAULT false,
    "downloads" INTEGER NOT NULL,
    "popularity" DOUBLE PRECISION NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "published" BOOLEAN NOT NULL DEFAULT true,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "keywords" TEXT[],
    "tag_names" TEXT[],
    "category_name" TEXT NOT NULL,
    "search" tsvector GENERATED ALWAYS AS (icon_search_document("name", "keywords", "tag_names", "category_name")) STORED,

    CONSTRAINT "icons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "icon_tags" (
    "icon_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,

    CONSTRAINT "icon_tags_pkey" PRIMARY KEY ("icon_id","tag_id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "public_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "account_id" INTEGER NOT NULL,
    "hourly_limit" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ownership" (
    "account_id" INTEGER NOT NULL,
    "icon_id" INTEGER NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ownership_pkey" PRIMARY KEY ("account_id","icon_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "icon_sets_prefix_key" ON "icon_sets"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "tags_slug_key" ON "tags"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "icons_slug_key" ON "icons"("slug");

-- CreateIndex
CREATE INDEX "icons_category_id_idx" ON "icons"("category_id");

-- CreateIndex
CREATE INDEX "icons_popularity_id_idx" ON "icons"("popularity" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_downloads_id_idx" ON "icons"("downloads" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_published_at_id_idx" ON "icons"("published_at" DESC, "id");

-- CreateIndex
CREATE INDEX "icons_name_id_idx" ON "icons"("name", "id");

-- CreateIndex
CREATE INDEX "icons_style_idx" ON "icons"("style");

-- CreateIndex
CREATE INDEX "icons_colors_idx" ON "icons" USING GIN ("colors");

-- CreateIndex
CREATE INDEX "icons_name_trgm_idx" ON "icons" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "icons_set_id_source_name_key" ON "icons"("set_id", "source_name");

-- CreateIndex
CREATE INDEX "icon_tags_tag_id_idx" ON "icon_tags"("tag_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_name_key" ON "accounts"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_public_id_key" ON "api_keys"("public_id");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE INDEX "ownership_icon_id_idx" ON "ownership"("icon_id");

-- AddForeignKey
ALTER TABLE "icons" ADD CONSTRAINT "icons_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "icon_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "icons" ADD CONSTRAINT "icons_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "icon_tags" ADD CONSTRAINT "icon_tags_icon_id_fkey" FOREIGN KEY ("icon_id") REFERENCES "icons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "icon_tags" ADD CONSTRAINT "icon_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ownership" ADD CONSTRAINT "ownership_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ownership" ADD CONSTRAINT "ownership_icon_id_fkey" FOREIGN KEY ("icon_id") REFERENCES "icons"("id") ON DELETE CASCADE ON UPDATE CASCADE;
