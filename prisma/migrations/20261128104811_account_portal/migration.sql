-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "name" TEXT;

-- CreateTable
CREATE TABLE "account_logins" (
    "account_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_logins_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "account_sessions" (
    "id" TEXT NOT NULL,
    "account_id" INTEGER,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_invitations" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "window_ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "api_key_usage_hours" (
    "key_id" INTEGER NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "requests" INTEGER NOT NULL,

    CONSTRAINT "api_key_usage_hours_pkey" PRIMARY KEY ("key_id","hour")
);

-- CreateTable
CREATE TABLE "key_usage_batches" (
    "id" TEXT NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_usage_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_logins_email_key" ON "account_logins"("email");

-- CreateIndex
CREATE INDEX "account_sessions_account_id_idx" ON "account_sessions"("account_id");

-- CreateIndex
CREATE INDEX "account_sessions_expires_at_idx" ON "account_sessions"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "account_invitations_code_hash_key" ON "account_invitations"("code_hash");

-- CreateIndex
CREATE INDEX "key_usage_batches_applied_at_idx" ON "key_usage_batches"("applied_at");

-- AddForeignKey
ALTER TABLE "account_logins" ADD CONSTRAINT "account_logins_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_sessions" ADD CONSTRAINT "account_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_usage_hours" ADD CONSTRAINT "api_key_usage_hours_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
