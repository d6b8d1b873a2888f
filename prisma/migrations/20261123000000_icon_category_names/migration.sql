-- One category, one name (issue 11, item 14). Icons keep a copy of their category's name for
-- the search document; until now each set's own spelling was copied, so the 136 icons of a set
-- that calls `food-drink` "Food & Drink" disagreed with the category, which the first set to
-- name it called "Food / Drink". The importer now copies the category's own name; this brings
-- icons imported before it in line.
UPDATE "icons" AS i
SET "category_name" = c."name"
FROM "categories" AS c
WHERE c."id" = i."category_id" AND i."category_name" IS DISTINCT FROM c."name";
