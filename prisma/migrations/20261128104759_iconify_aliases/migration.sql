-- CreateTable
CREATE TABLE "icon_aliases" (
    "set_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "parent" TEXT NOT NULL,
    "icon_id" INTEGER NOT NULL,
    "rotate" SMALLINT NOT NULL DEFAULT 0,
    "h_flip" BOOLEAN NOT NULL DEFAULT false,
    "v_flip" BOOLEAN NOT NULL DEFAULT false,
    "width" DOUBLE PRECISION,
    "height" DOUBLE PRECISION,

    CONSTRAINT "icon_aliases_pkey" PRIMARY KEY ("set_id","name")
);

-- CreateIndex
CREATE INDEX "icon_aliases_icon_id_idx" ON "icon_aliases"("icon_id");

-- AddForeignKey
ALTER TABLE "icon_aliases" ADD CONSTRAINT "icon_aliases_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "icon_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "icon_aliases" ADD CONSTRAINT "icon_aliases_icon_id_fkey" FOREIGN KEY ("icon_id") REFERENCES "icons"("id") ON DELETE CASCADE ON UPDATE CASCADE;
