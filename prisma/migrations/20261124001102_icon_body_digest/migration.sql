-- The version a file's address carries (issue 13): a digest of what the SVG file is made from
-- (the body and its size), computed by PostgreSQL on every write, so the importer cannot forget
-- it. A file requested with the current digest is served as immutable; a changed icon gets a
-- new address. md5 here names content, it protects nothing.
ALTER TABLE "icons" ADD COLUMN "body_digest" TEXT NOT NULL
  GENERATED ALWAYS AS (left(md5("width"::text || 'x' || "height"::text || ':' || "body"), 12)) STORED;
