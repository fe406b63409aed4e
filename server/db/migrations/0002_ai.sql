-- The AI assistant's limits (docs/PRODUCT.md "AI assistant" and "Limits"), in the database so that
-- every instance sees them. Its per-minute rate limit uses rate_limits (keys `ai:user:<id>`).
-- Nothing newer than PostgreSQL 15.

-- At most one answer streaming per user. A row is claimed when a stream starts and deleted when it
-- ends; one that outlived the longest possible stream (its instance died) may be claimed again.
CREATE TABLE ai_streams (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- Who holds the row now, so that a stream only ever frees its own claim.
  stream_id uuid NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  -- host/pid of the server streaming, for whoever looks at a stuck row.
  instance text NOT NULL
);

-- Tokens and requests per user and UTC day, for the daily budget ("AI usage" in
-- docs/ARCHITECTURE.md "Data").
CREATE TABLE ai_usage (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day date NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, day)
);
