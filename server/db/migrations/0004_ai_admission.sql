-- Admitting an AI request (docs/PRODUCT.md "AI assistant" and "Limits") in one call whose plans
-- PostgreSQL keeps: the request waits on this before it leaves for the provider, so it is one round
-- trip, not three, and about half the time of the same steps as one planned-each-time statement.
-- Nothing newer than PG 15.
--
-- In order: today's token budget (checked before the request, so one answer may take a user
-- somewhat past it; a spent budget counts no request), the requests of the current minute (in
-- rate_limits), then the one stream a user may run. Returns one row: budget_wait (seconds to the
-- next UTC midnight) when the budget is spent; else hits and rate_wait (seconds left in the
-- minute); and stream_id when the stream was claimed (null while another holds it).
CREATE FUNCTION ai_admit(
  p_user uuid,
  p_budget bigint,
  p_rate_key text,
  p_window_seconds integer,
  p_requests_per_minute integer,
  p_stream uuid,
  p_instance text,
  p_stale_seconds integer
) RETURNS TABLE (budget_wait integer, hits integer, rate_wait integer, stream_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM 1 FROM ai_usage u
   WHERE u.user_id = p_user AND u.day = v_today
     AND u.input_tokens::bigint + u.output_tokens >= p_budget;
  IF FOUND THEN
    budget_wait := GREATEST(1, CEIL(EXTRACT(EPOCH FROM (
      date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day' - (now() AT TIME ZONE 'UTC')
    ))))::integer;
    RETURN NEXT;
    RETURN;
  END IF;

  -- A window that has passed starts again with this request.
  INSERT INTO rate_limits AS r (key, window_start, hits) VALUES (p_rate_key, now(), 1)
  ON CONFLICT (key) DO UPDATE SET
    window_start = CASE WHEN r.window_start <= now() - make_interval(secs => p_window_seconds)
                        THEN now() ELSE r.window_start END,
    hits = CASE WHEN r.window_start <= now() - make_interval(secs => p_window_seconds)
                THEN 1 ELSE r.hits + 1 END
  RETURNING r.hits,
    GREATEST(1, CEIL(EXTRACT(EPOCH FROM (
      r.window_start + make_interval(secs => p_window_seconds) - now()
    ))))::integer
  INTO hits, rate_wait;
  IF hits > p_requests_per_minute THEN
    RETURN NEXT;
    RETURN;
  END IF;

  -- One statement, so two instances racing for the same user cannot both win; a claim older
  -- than p_stale_seconds outlived any stream (its instance died) and is taken over.
  INSERT INTO ai_streams AS s (user_id, stream_id, started_at, instance)
  VALUES (p_user, p_stream, now(), p_instance)
  ON CONFLICT (user_id) DO UPDATE SET
    stream_id = EXCLUDED.stream_id, started_at = now(), instance = EXCLUDED.instance
  WHERE s.started_at < now() - make_interval(secs => p_stale_seconds)
  RETURNING s.stream_id INTO stream_id;
  RETURN NEXT;
END
$$;
