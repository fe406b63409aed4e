-- The AI route looks its session up and admits its request in one call: it waits on both before
-- the request leaves for the provider, and on PGlite each call costs the server's only thread
-- about half a millisecond. Returns no row when the session is unknown or expired; else the
-- columns of find_session (migration 0005) and of ai_admit (migration 0004) for its user.
CREATE FUNCTION ai_admit_session(
  p_id_hash text,
  p_budget bigint,
  p_rate_key_prefix text,
  p_window_seconds integer,
  p_requests_per_minute integer,
  p_stream uuid,
  p_instance text,
  p_stale_seconds integer
) RETURNS TABLE (
  user_id uuid, email text, name text, id_token text, last_seen_at timestamptz,
  budget_wait integer, hits integer, rate_wait integer, stream_id uuid
)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT f.user_id, f.email, f.name, f.id_token, f.last_seen_at
    INTO user_id, email, name, id_token, last_seen_at
    FROM find_session(p_id_hash) f;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT a.budget_wait, a.hits, a.rate_wait, a.stream_id
    INTO budget_wait, hits, rate_wait, stream_id
    FROM ai_admit(user_id, p_budget, p_rate_key_prefix || user_id::text, p_window_seconds,
                  p_requests_per_minute, p_stream, p_instance, p_stale_seconds) a;
  RETURN NEXT;
END
$$;
