-- A generated search column made every autosave re-index the whole text (about 18 ms of a 100 KB
-- document on PGlite, 10 ms on PostgreSQL), a quarter of the save route's throughput. Saves now
-- only mark a document as not indexed (indexed_version < version); the server indexes such rows
-- in the background and before it lists or searches that owner's documents.

ALTER TABLE documents DROP COLUMN search;
ALTER TABLE documents ADD COLUMN search tsvector NOT NULL DEFAULT ''::tsvector;
ALTER TABLE documents ADD COLUMN indexed_version integer NOT NULL DEFAULT 0;

UPDATE documents
   SET search = setweight(to_tsvector('simple', title), 'A')
             || setweight(to_tsvector('simple', plain_text), 'B'),
       indexed_version = version;

CREATE INDEX documents_search ON documents USING gin (search);
CREATE INDEX documents_unindexed ON documents (owner_id) WHERE indexed_version < version;
