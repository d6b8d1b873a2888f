-- Whole-set grants (issue 46): an account that owns a set gets every icon an import adds to it.
-- CreateTable
CREATE TABLE "set_grants" (
    "account_id" INTEGER NOT NULL,
    "set_id" INTEGER NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "set_grants_pkey" PRIMARY KEY ("account_id","set_id")
);

-- CreateIndex
CREATE INDEX "set_grants_set_id_idx" ON "set_grants"("set_id");

-- AddForeignKey
ALTER TABLE "set_grants" ADD CONSTRAINT "set_grants_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "set_grants" ADD CONSTRAINT "set_grants_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "icon_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
