-- Accounts, sessions and documents (docs/ARCHITECTURE.md "Data"), and the embedded identity
-- provider's storage. Runs on PostgreSQL 15 (Debian) and PGlite (PostgreSQL 18): nothing newer than
-- 15.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  issuer text NOT NULL,
  subject text NOT NULL,
  email text,
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (issuer, subject)
);

-- The cookie holds a random 256-bit id; only its SHA-256 is stored, so a leaked table signs nobody in.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  user_agent text,
  -- Sent back to the provider as id_token_hint when signing out.
  id_token text
);
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- One row per sign-in under way: PKCE verifier, nonce and where to return, keyed by the state hash.
CREATE TABLE login_flows (
  state_hash text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  return_to text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL DEFAULT '' CHECK (char_length(title) <= 200),
  content jsonb NOT NULL,
  -- The document's text, kept beside the JSON for excerpts and search.
  plain_text text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', plain_text), 'B')
  ) STORED
);
CREATE INDEX documents_owner_updated ON documents (owner_id, updated_at DESC);
CREATE INDEX documents_search ON documents USING gin (search);

-- Accounts of the embedded provider (only used when no hosted provider is configured).
CREATE TABLE idp_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX idp_accounts_email ON idp_accounts (lower(email));

-- oidc-provider's models (sessions, grants, codes, tokens, interactions), one row each.
CREATE TABLE idp_models (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX idp_models_grant_id ON idp_models (grant_id);
CREATE INDEX idp_models_uid ON idp_models (uid);
CREATE INDEX idp_models_user_code ON idp_models (user_code);
CREATE INDEX idp_models_expires_at ON idp_models (expires_at);

-- Generated once and kept: signing keys, cookie keys, the embedded client's secret.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Fixed-window counters for throttling (sign-in attempts, later AI requests), shared by instances.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
