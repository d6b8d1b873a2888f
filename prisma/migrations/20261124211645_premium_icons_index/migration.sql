-- The published premium icons (a few per cent of the catalogue: 8,706 of 380,909 in the full
-- one), so that a list or a count of them reads this small index instead of the whole table
-- (list-icons.ts reads a filter's matches this way when they are few).
CREATE INDEX "icons_premium_published_idx" ON "icons" ("id") WHERE "premium" AND "published";
