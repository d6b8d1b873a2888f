-- The sanitizer's mark beside each body (lib/svg/sanitize.ts, sanitizedMark), written by the
-- importer. Rows from before have none: their bodies are sanitized when served, as before,
-- until the next import rewrites them (the import's set digest now names the sanitizer's
-- version, so the first import after this migration rewrites every set once).
ALTER TABLE "icons" ADD COLUMN "body_mark" TEXT;
