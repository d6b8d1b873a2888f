-- Tags that describe an icon's whole set (the set's own tags such as "Precise Shapes" or
-- "Has Padding", and its name) rather than the icon (issue 14): the link stays, so they remain
-- searchable and filterable, and the icon's `tags` leave them out.
ALTER TABLE "icon_tags" ADD COLUMN "of_set" BOOLEAN NOT NULL DEFAULT false;

-- Existing rows: a tag that every icon of a set carries is taken as the set's. The next import
-- (mapping version 3) writes the flag from the sets' data exactly.
UPDATE "icon_tags" it SET "of_set" = true
FROM "icons" i,
  (SELECT i2."set_id", it2."tag_id"
     FROM "icon_tags" it2 JOIN "icons" i2 ON i2."id" = it2."icon_id"
     GROUP BY i2."set_id", it2."tag_id"
     HAVING count(*) = (SELECT count(*) FROM "icons" i3 WHERE i3."set_id" = i2."set_id")) whole
WHERE it."icon_id" = i."id" AND i."set_id" = whole."set_id" AND it."tag_id" = whole."tag_id";
