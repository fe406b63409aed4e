-- Sharing (docs/ARCHITECTURE.md "Data", docs/PRODUCT.md "Sharing"). A document keeps its one
-- owner (`documents.owner_id`); others reach it through a share with a person, through the
-- document's link, or read its published page. Roles are data: 'viewer' < 'editor' (the owner's
-- role is never stored). Every existing document stays its owner's alone: nothing is inserted.

-- The share dialog finds an account by its exact address, whatever its case.
CREATE INDEX users_email_lower ON users (lower(email));

-- A person the owner shared the document with, by account.
CREATE TABLE document_shares (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('viewer', 'editor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, user_id)
);
CREATE INDEX document_shares_user ON document_shares (user_id);

-- "Anyone with the link who signs in": at most one link per document. The token itself is never
-- stored: `token_hash` (SHA-256) finds the link, and the owner's copy of the address is derived
-- again from `nonce` with the server's key (server/sharing/tokens.ts). A new link is a new nonce.
CREATE TABLE share_links (
  document_id uuid PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('viewer', 'editor')),
  nonce bytea NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Who came in through a link, and through which: access lasts while that link is the
-- document's current one, at the link's current role.
CREATE TABLE share_link_members (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, user_id)
);
CREATE INDEX share_link_members_user ON share_link_members (user_id);

-- A published page: read-only, for anyone with its address, until unpublished or expired.
CREATE TABLE published_pages (
  document_id uuid PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
  nonce bytea NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  -- Search engines are asked not to index the page unless the owner allows it.
  indexable boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  published_at timestamptz NOT NULL DEFAULT now()
);

-- Every role anyone holds on a document, one row per way in (rank 3 owner, 2 editor, 1 viewer);
-- a person's role is the highest of theirs. The one definition of who may read what: the role
-- of one document (server/sharing/access.ts) and every list, search and link query join it.
CREATE VIEW document_roles AS
  SELECT id AS document_id, owner_id AS user_id, 3 AS rank FROM documents
  UNION ALL
  SELECT document_id, user_id, CASE role WHEN 'editor' THEN 2 ELSE 1 END FROM document_shares
  UNION ALL
  SELECT m.document_id, m.user_id, CASE l.role WHEN 'editor' THEN 2 ELSE 1 END
    FROM share_link_members m
    JOIN share_links l ON l.document_id = m.document_id AND l.token_hash = m.token_hash;

-- A person's role in one document as its rank (null: none), from the view above. documentRole
-- asks this for every request and socket: PL/pgSQL keeps the plan of its query for the session,
-- where the same query sent as text is planned again each time, and planning the view's three
-- branches cost more than running them (about 1 ms on PGlite).
CREATE FUNCTION document_role_rank(doc uuid, person uuid) RETURNS integer
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT max(rank) FROM document_roles WHERE document_id = doc AND user_id = person);
END
$$;
