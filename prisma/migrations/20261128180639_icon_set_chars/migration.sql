-- AlterTable
ALTER TABLE "icon_sets" ADD COLUMN     "chars" JSONB;
