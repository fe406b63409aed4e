-- Wikilinks between a writer's documents, for backlinks and for updating links on a rename
-- (server/links/). One row per document and target as written (folded: lower case, no `.md`);
-- `target_name` is its last segment, which a title matches when the path finds no document.
-- Saves do not fill it: a document whose links_version is behind its version has its rows
-- rebuilt before the next backlinks query, so autosave pays nothing for links.

CREATE TABLE document_links (
  source_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_path text NOT NULL,
  target_name text NOT NULL,
  links integer NOT NULL,
  PRIMARY KEY (source_id, target_path)
);
CREATE INDEX document_links_owner_name ON document_links (owner_id, target_name);
CREATE INDEX document_links_owner_path ON document_links (owner_id, target_path);

ALTER TABLE documents ADD COLUMN links_version integer NOT NULL DEFAULT 0;
CREATE INDEX documents_links_stale ON documents (owner_id) WHERE links_version < version;
