-- Version history (docs/PRODUCT.md "Version history", server/versions/). A version is the
-- document's Yjs state at one moment: a keyframe holds the whole state; any other version holds
-- only what differs from its keyframe (Y.encodeStateAsUpdate against the keyframe's state
-- vector), so a version costs about what was written since the keyframe, and removing any
-- version but a keyframe breaks nothing.
CREATE TABLE document_versions (
  id bigserial PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('auto', 'named', 'restore')),
  name text,
  -- Who kept it by hand (named, restore); null for the server's own.
  kept_by uuid REFERENCES users (id) ON DELETE SET NULL,
  -- The accounts whose Yjs clients wrote since the version before (document_yjs_clients).
  authors uuid[] NOT NULL DEFAULT '{}',
  added integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0,
  -- Items deleted in the whole state: what the next version's count of removals starts from.
  deleted_total bigint NOT NULL DEFAULT 0,
  -- sha-256 of the version's content as canonical JSON: one identical to the newest is not kept.
  content_hash text NOT NULL,
  -- Null for a keyframe: `state` is then the whole state.
  base_id bigint REFERENCES document_versions (id),
  state bytea NOT NULL,
  state_vector bytea NOT NULL,
  -- The /files/<id> ids its content names: the sweep keeps them while the version is kept.
  file_ids uuid[] NOT NULL DEFAULT '{}'
);
CREATE INDEX document_versions_document ON document_versions (document_id, id DESC);
CREATE INDEX document_versions_base ON document_versions (base_id) WHERE base_id IS NOT NULL;

-- The server's own record of which account each Yjs client id of a document wrote for, taken
-- from the socket that sent the update (never a name a client declares); first writer wins.
CREATE TABLE document_yjs_clients (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  client_id bigint NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (document_id, client_id)
);
