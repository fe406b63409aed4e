import { randomUUID } from 'node:crypto';
import type { AiUsage } from '../../common/api/ai.ts';
import type { SessionRow } from '../auth/sessions.ts';
import type { Queryable } from '../db/database.ts';

/** Today as the budget counts it: the UTC date, whatever the server's time zone. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;
/** Largest value of an `integer` column: counts stop there rather than fail the statement. */
const MAX_INT = 2_147_483_647;

/** What {@link admitSessionRequest} needs to know of the limits. */
export interface AdmissionLimits {
  /** Tokens a user may use per UTC day. */
  dailyTokenBudget: number;
  /** Requests a user may start per minute. */
  requestsPerMinute: number;
  /** Names this process on the stream claim, for whoever inspects a stuck one. */
  instance: string;
  /** A claim older than this outlived any stream (its instance died) and is taken over. */
  staleAfterSeconds: number;
}

/** Why a request was refused, and for how long, or the stream claim it was admitted with. */
export type Admission =
  | { admitted: true; streamId: string }
  | { admitted: false; reason: 'budget' | 'rate'; waitSeconds: number }
  | { admitted: false; reason: 'busy' };

/** Before the user's id, the key of their requests in `rate_limits`; its window is a minute. */
const RATE_KEY_PREFIX = 'ai:user:';
const RATE_WINDOW_SECONDS = 60;

/** What `ai_admit` (migration 0004) answers. */
interface AdmissionRow {
  budget_wait: number | null;
  hits: number | null;
  rate_wait: number | null;
  stream_id: string | null;
}

/**
 * Looks up the live session `idHash` and admits one request of its user, in one round trip
 * (`ai_admit_session`, migration 0006): today's token budget, then the requests of the last
 * minute, then the one stream a user may run, shared by every instance through `ai_streams`.
 * Null when there is no such live session; then nothing is counted.
 */
export async function admitSessionRequest(
  db: Queryable,
  idHash: string,
  limits: AdmissionLimits,
): Promise<{ session: SessionRow; admission: Admission } | null> {
  const { rows } = await db.query<SessionRow & AdmissionRow>(
    `SELECT user_id, email, name, id_token, last_seen_at, budget_wait, hits, rate_wait, stream_id
       FROM ai_admit_session($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      idHash,
      limits.dailyTokenBudget,
      RATE_KEY_PREFIX,
      RATE_WINDOW_SECONDS,
      limits.requestsPerMinute,
      randomUUID(),
      limits.instance,
      limits.staleAfterSeconds,
    ],
  );
  const row = rows[0];
  return row ? { session: row, admission: admissionOf(row, limits) } : null;
}

function admissionOf(row: AdmissionRow, limits: AdmissionLimits): Admission {
  if (row.budget_wait !== null) {
    return { admitted: false, reason: 'budget', waitSeconds: row.budget_wait };
  }
  if (row.hits === null || row.hits > limits.requestsPerMinute) {
    return { admitted: false, reason: 'rate', waitSeconds: row.rate_wait ?? RATE_WINDOW_SECONDS };
  }
  return row.stream_id === null
    ? { admitted: false, reason: 'busy' }
    : { admitted: true, streamId: row.stream_id };
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
