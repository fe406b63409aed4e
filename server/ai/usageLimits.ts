import { randomUUID } from 'node:crypto';
import type { AiUsage } from '../../common/api/ai.ts';
import { hit, type RateRule } from '../auth/idp/throttle.ts';
import type { Queryable } from '../db/database.ts';

/** Today as the budget counts it: the UTC date, whatever the server's time zone. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;
/** Whole seconds until the next UTC midnight, when the budget starts again. */
const SECONDS_TO_MIDNIGHT = `GREATEST(1, CEIL(EXTRACT(EPOCH FROM (
  date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day' - (now() AT TIME ZONE 'UTC')
))))::integer`;
/** Largest value of an `integer` column: counts stop there rather than fail the statement. */
const MAX_INT = 2_147_483_647;

/** The per-minute limit of one user's AI requests, counted in `rate_limits`. */
export function aiRateRule(userId: string, requestsPerMinute: number): RateRule {
  return { key: `ai:user:${userId}`, limit: requestsPerMinute, windowSeconds: 60 };
}

/** Counts one request of `userId`; seconds to wait when that was one too many, else 0. */
export function countRequest(
  db: Queryable,
  userId: string,
  requestsPerMinute: number,
): Promise<number> {
  return hit(db, [aiRateRule(userId, requestsPerMinute)]);
}

/**
 * Seconds until the next UTC midnight when `userId` has used `budget` tokens or more today, else 0.
 * The budget is checked before a request, so one answer may take a user somewhat past it.
 */
export async function budgetWait(db: Queryable, userId: string, budget: number): Promise<number> {
  const { rows } = await db.query<{ spent: boolean; wait: number }>(
    `SELECT input_tokens::bigint + output_tokens >= $2 AS spent, ${SECONDS_TO_MIDNIGHT} AS wait
     FROM ai_usage WHERE user_id = $1 AND day = ${TODAY}`,
    [userId, budget],
  );
  const row = rows[0];
  return row?.spent ? row.wait : 0;
}

/** Adds one request and its tokens to today's usage of `userId`. */
export async function recordUsage(db: Queryable, userId: string, usage: AiUsage): Promise<void> {
  await db.query(
    `INSERT INTO ai_usage AS u (user_id, day, requests, input_tokens, output_tokens)
     VALUES ($1, ${TODAY}, 1, LEAST($2::bigint, ${MAX_INT}), LEAST($3::bigint, ${MAX_INT}))
     ON CONFLICT (user_id, day) DO UPDATE SET
       requests = LEAST(u.requests::bigint + 1, ${MAX_INT}),
       input_tokens = LEAST(u.input_tokens::bigint + EXCLUDED.input_tokens, ${MAX_INT}),
       output_tokens = LEAST(u.output_tokens::bigint + EXCLUDED.output_tokens, ${MAX_INT})`,
    [userId, usage.inputTokens, usage.outputTokens],
  );
}

/** Today's usage of `userId` (zeros when none). */
export async function usageToday(
  db: Queryable,
  userId: string,
): Promise<{ requests: number; inputTokens: number; outputTokens: number }> {
  const { rows } = await db.query<{ requests: number; input: number; output: number }>(
    `SELECT requests, input_tokens AS input, output_tokens AS output
     FROM ai_usage WHERE user_id = $1 AND day = ${TODAY}`,
    [userId],
  );
  const row = rows[0];
  return {
    requests: row?.requests ?? 0,
    inputTokens: row?.input ?? 0,
    outputTokens: row?.output ?? 0,
  };
}

/**
 * Claims the one stream `userId` may run, shared by every instance through `ai_streams`; returns
 * the claim's id, or null while another stream holds it. A claim older than `staleAfterSeconds`
 * outlived any stream (its instance died before freeing it) and is taken over.
 */
export async function claimStream(
  db: Queryable,
  userId: string,
  instance: string,
  staleAfterSeconds: number,
): Promise<string | null> {
  const streamId = randomUUID();
  // One statement, so two instances racing for the same user cannot both win.
  const { rows } = await db.query(
    `INSERT INTO ai_streams AS s (user_id, stream_id, started_at, instance) VALUES ($1, $2, now(), $3)
     ON CONFLICT (user_id) DO UPDATE SET
       stream_id = EXCLUDED.stream_id, started_at = now(), instance = EXCLUDED.instance
     WHERE s.started_at < now() - make_interval(secs => $4)
     RETURNING stream_id`,
    [userId, streamId, instance, staleAfterSeconds],
  );
  return rows.length === 1 ? streamId : null;
}

/** Frees the claim `streamId` of `userId`; a claim taken over since is left alone. */
export async function releaseStream(
  db: Queryable,
  userId: string,
  streamId: string,
): Promise<void> {
  await db.query('DELETE FROM ai_streams WHERE user_id = $1 AND stream_id = $2', [
    userId,
    streamId,
  ]);
}
