-- Uploaded images (docs/ARCHITECTURE.md "Data"). A row is written before its bytes and marked
-- ready after them, so a server killed mid-upload leaves a pending row that nobody can read or
-- reference (its id is only handed out once ready) and that the sweep removes.
CREATE TABLE files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready')),
  -- Cleaned of path parts and control characters; served in Content-Disposition.
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  type text NOT NULL,
  -- Set once ready: the stored (re-encoded) image's size, pixels and SHA-256 (its ETag).
  bytes bigint,
  width integer,
  height integer,
  sha256 text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_owner ON files (owner_id);
CREATE INDEX files_created_at ON files (created_at);

-- The bytes of files kept in the database (no S3_BUCKET), in pieces of a few hundred kilobytes so
-- that neither writing nor reading holds a whole file. `start` is the piece's offset in the file,
-- which lets a range request begin at the piece that holds its first byte.
CREATE TABLE file_chunks (
  file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  start bigint NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (file_id, start)
);
