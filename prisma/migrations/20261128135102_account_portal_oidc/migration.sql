-- AlterTable
ALTER TABLE "account_sessions" ADD COLUMN     "oidc_flow" TEXT;
