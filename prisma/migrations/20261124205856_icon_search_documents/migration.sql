-- What ranking and counting a search's matches read of each published icon, in a narrow table
-- of its own (issue 12). A full-text index cannot answer alone: PostgreSQL visits every
-- matching row to recheck it, and icon rows are wide (body, names, keywords: about 1 GB for the
-- full catalogue). Counting the 111,351 icons that match `uses` read 32,000 pages of icons
-- (300 ms); the same count on a table of documents took 21 ms.
CREATE TABLE "icon_search_documents" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "popularity" DOUBLE PRECISION NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "icon_search_documents_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "icon_search_documents_search_idx" ON "icon_search_documents" USING GIN ("search");

ALTER TABLE "icon_search_documents" ADD CONSTRAINT "icon_search_documents_id_fkey" FOREIGN KEY ("id") REFERENCES "icons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept by the icons' own writes: a published icon has its row here, an unpublished one has
-- none. Only writes that change what is kept here fire it (a download fold changes popularity).
CREATE FUNCTION icon_search_document_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.published THEN
    INSERT INTO icon_search_documents (id, name, popularity, search)
    VALUES (NEW.id, NEW.name, NEW.popularity, coalesce(NEW.search, ''::tsvector))
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, popularity = excluded.popularity, search = excluded.search;
  ELSE
    DELETE FROM icon_search_documents WHERE id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER icons_search_document_insert AFTER INSERT ON icons
  FOR EACH ROW WHEN (NEW.published) EXECUTE FUNCTION icon_search_document_sync();
CREATE TRIGGER icons_search_document_update AFTER UPDATE ON icons
  FOR EACH ROW WHEN (
    OLD.published IS DISTINCT FROM NEW.published OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.popularity IS DISTINCT FROM NEW.popularity OR OLD.search IS DISTINCT FROM NEW.search
  )
  EXECUTE FUNCTION icon_search_document_sync();

INSERT INTO icon_search_documents (id, name, popularity, search)
  SELECT id, name, popularity, coalesce(search, ''::tsvector) FROM icons WHERE published;
ANALYZE icon_search_documents;
