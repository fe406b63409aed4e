-- Live collaboration (docs/ARCHITECTURE.md "Data", server/collab/). A document that has been
-- opened for collaboration keeps its truth as Yjs state: a snapshot here plus the updates
-- appended since, each written before the editor that sent it is told it is saved. Its
-- `documents.content` is derived from that state. A document without a row here still has only
-- its JSON, which the server converts on first open.
CREATE TABLE document_yjs (
  document_id uuid PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
  -- Y.encodeStateAsUpdate of the document as of the last compaction.
  state bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Updates accepted since the snapshot, in arrival order; compaction folds them into `state` and
-- deletes them. Applying an update twice is harmless in Yjs, so an update both in the snapshot
-- and still here (an instance that stopped between the two writes) loads fine.
CREATE TABLE document_yjs_updates (
  id bigserial PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_yjs_updates_document ON document_yjs_updates (document_id, id);

-- Set in the transaction that converts a document to Yjs. A save through the REST API tests it
-- in its own UPDATE, which PostgreSQL re-checks on the row as the conversion left it: a save
-- racing the first live open never writes JSON the Yjs state does not hold.
ALTER TABLE documents ADD COLUMN has_yjs boolean NOT NULL DEFAULT false;
