import type { Queryable } from './database.ts';

/**
 * A fixed-window limit on one key in `rate_limits`, the one table every throttle counts in, so
 * that every instance sees the same counts. The AI assistant's admission counts in it too, from
 * inside its SQL function (`ai_admit`, one round trip); everything else goes through here.
 * Written here rather than taken from rate-limiter-flexible: its PostgreSQL store wants a pg pool
 * (PGlite, the default database, is none) and its other shared store is Redis, which Inkwell does
 * not require; limits must hold across instances on whichever database they share.
 */
export interface RateRule {
  /** Row key, starting with its owner's prefix: `idp:`, `ai:`, `files:`. */
  key: string;
  /** Hits allowed in one window. */
  limit: number;
  /** Length of the window in seconds; at most a day, as older rows are swept. */
  windowSeconds: number;
}

/** Rows older than this are no use to any rule and are deleted now and then. */
const KEEP_SECONDS = 24 * 60 * 60;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Seconds until the first of `rules` that is used up frees again; 0 when none is. Counts nothing,
 * so a check before a sign-in costs no attempt.
 */
export async function retryAfter(db: Queryable, rules: readonly RateRule[]): Promise<number> {
  let wait = 0;
  for (const rule of rules) {
    const { rows } = await db.query<{ hits: number; retry: number }>(
      `SELECT hits, ${secondsLeft('window_start')} AS retry FROM rate_limits
       WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [rule.key, rule.windowSeconds],
    );
    const row = rows[0];
    if (row && row.hits >= rule.limit) wait = Math.max(wait, row.retry);
  }
  return wait;
}

/**
 * Counts one hit on each rule in one statement each (safe across instances) and returns seconds
 * until the longest-blocked rule frees again, or 0 when every rule is still within its limit.
 */
export async function hit(db: Queryable, rules: readonly RateRule[]): Promise<number> {
  await sweep(db);
  let wait = 0;
  for (const rule of rules) {
    const expired = 'r.window_start <= now() - make_interval(secs => $2)';
    const { rows } = await db.query<{ hits: number; retry: number }>(
      `INSERT INTO rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN ${expired} THEN now() ELSE r.window_start END,
         hits = CASE WHEN ${expired} THEN 1 ELSE r.hits + 1 END
       RETURNING hits, ${secondsLeft('window_start')} AS retry`,
      [rule.key, rule.windowSeconds],
    );
    const row = rows[0]!;
    if (row.hits > rule.limit) wait = Math.max(wait, row.retry);
  }
  return wait;
}

/** Whole seconds left in the window that started at `column` (`$2` is the window length). */
function secondsLeft(column: string): string {
  return `GREATEST(1, CEIL(EXTRACT(EPOCH FROM (${column} + make_interval(secs => $2) - now()))))::integer`;
}

let lastSweep = 0;

/** Keys from many addresses, e-mails and people pile up; drop stale ones at most every ten minutes. */
async function sweep(db: Queryable): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  await db.query(`DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => $1)`, [
    KEEP_SECONDS,
  ]);
}
