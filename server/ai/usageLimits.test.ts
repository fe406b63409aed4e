import { expect, it } from 'vitest';
import { hashToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testUserWithSession } from '../test/users.ts';
import {
  admitSessionRequest,
  recordUsage,
  releaseStream,
  usageToday,
  type AdmissionLimits,
} from './usageLimits.ts';

/** The key of each test user's session: requests are admitted by session. */
const sessionOf = new Map<string, string>();

async function newUser(db: Database): Promise<string> {
  const { user, token } = await testUserWithSession(db);
  sessionOf.set(user.id, hashToken(token));
  return user.id;
}

/** Admits a request of `userId` with `LIMITS` and `overrides`. */
async function admitRequest(db: Database, userId: string, overrides: Partial<AdmissionLimits>) {
  const found = await admitSessionRequest(db, sessionOf.get(userId)!, { ...LIMITS, ...overrides });
  expect(found?.session.user_id).toBe(userId);
  return found!.admission;
}

const LIMITS: AdmissionLimits = {
  dailyTokenBudget: 1000,
  requestsPerMinute: 100,
  instance: 'host/1',
  staleAfterSeconds: 180,
};

/** Admits a request with `LIMITS` and `overrides`; the stream id, or why it was refused. */
async function admit(
  db: Database,
  userId: string,
  overrides: Partial<AdmissionLimits> = {},
): Promise<string> {
  const admission = await admitRequest(db, userId, overrides);
  return admission.admitted ? admission.streamId : admission.reason;
}

/** Admits a request and frees its stream at once; the stream id, or why it was refused. */
async function admitAndEnd(db: Database, userId: string, overrides: Partial<AdmissionLimits> = {}) {
  const admission = await admitRequest(db, userId, overrides);
  if (!admission.admitted) return admission;
  await releaseStream(db, userId, admission.streamId);
  return { admitted: true };
}

async function requestsCounted(db: Database, userId: string): Promise<number> {
  const { rows } = await db.query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1', [
    `ai:user:${userId}`,
  ]);
  return rows[0]?.hits ?? 0;
}

const UUID = /^[0-9a-f-]{36}$/;

describeEachDatabase('AI usage limits', (getDb) => {
  it('admits nothing and counts nothing without a live session', async () => {
    const db = getDb();
    const ada = await newUser(db);
    const expired = sessionOf.get(ada)!;
    await db.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1`,
      [expired],
    );
    expect(await admitSessionRequest(db, expired, LIMITS)).toBeNull();
    expect(await admitSessionRequest(db, hashToken('forged'), LIMITS)).toBeNull();
    expect(await requestsCounted(db, ada)).toBe(0);
    expect((await db.query('SELECT 1 FROM ai_streams WHERE user_id = $1', [ada])).rows).toEqual([]);
  });

  it('lets one stream per user run, and the next once it is freed', async () => {
    const db = getDb();
    const [ada, bob] = [await newUser(db), await newUser(db)];
    const first = await admit(db, ada);
    expect(first).toMatch(UUID);
    expect(await admit(db, ada, { instance: 'host/2' })).toBe('busy');
    expect(await admit(db, bob, { instance: 'host/2' })).toMatch(UUID);
    await releaseStream(db, ada, first);
    expect(await admit(db, ada, { instance: 'host/2' })).toMatch(UUID);
  });

  it('takes over a claim older than the stale limit, which its old holder then cannot free', async () => {
    const db = getDb();
    const ada = await newUser(db);
    const dead = await admit(db, ada, { instance: 'crashed/1' });
    expect(dead).toMatch(UUID);
    await db.query(
      `UPDATE ai_streams SET started_at = now() - interval '181 seconds' WHERE user_id = $1`,
      [ada],
    );
    expect(await admit(db, ada, { instance: 'host/2' })).toMatch(UUID);
    await releaseStream(db, ada, dead);
    expect(await admit(db, ada, { instance: 'host/3' })).toBe('busy');
    const { rows } = await db.query<{ instance: string }>(
      'SELECT instance FROM ai_streams WHERE user_id = $1',
      [ada],
    );
    expect(rows).toEqual([{ instance: 'host/2' }]);
  });

  it('adds up requests and tokens per day, and refuses until midnight UTC once the budget is spent', async () => {
    const db = getDb();
    const [ada, bob] = [await newUser(db), await newUser(db)];
    expect(await admitAndEnd(db, ada)).toEqual({ admitted: true });
    await recordUsage(db, ada, { inputTokens: 400, outputTokens: 100, estimated: false });
    await recordUsage(db, ada, { inputTokens: 300, outputTokens: 199, estimated: true });
    expect(await usageToday(db, ada)).toEqual({ requests: 2, inputTokens: 700, outputTokens: 299 });
    expect(await admitAndEnd(db, ada)).toEqual({ admitted: true });
    await recordUsage(db, ada, { inputTokens: 0, outputTokens: 1, estimated: false });
    const refused = await admitAndEnd(db, ada);
    expect(refused).toMatchObject({ admitted: false, reason: 'budget' });
    const wait = 'waitSeconds' in refused ? refused.waitSeconds : 0;
    const { rows } = await db.query<{ seconds: number }>(
      `SELECT EXTRACT(EPOCH FROM (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day'
         - (now() AT TIME ZONE 'UTC')))::float8 AS seconds`,
    );
    expect(Math.abs(wait - rows[0]!.seconds)).toBeLessThanOrEqual(2);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(86400);
    // A request refused for the budget counts against no other limit and claims no stream.
    expect(await requestsCounted(db, ada)).toBe(2);
    expect((await db.query('SELECT 1 FROM ai_streams WHERE user_id = $1', [ada])).rows).toEqual([]);
    expect(await admitAndEnd(db, bob)).toEqual({ admitted: true });
  });

  it('counts yesterday apart from today', async () => {
    const db = getDb();
    const ada = await newUser(db);
    await db.query(
      `INSERT INTO ai_usage (user_id, day, requests, input_tokens, output_tokens)
       VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 1, 9, 999999, 999999)`,
      [ada],
    );
    expect(await admitAndEnd(db, ada)).toEqual({ admitted: true });
    expect(await usageToday(db, ada)).toEqual({ requests: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('stops counting at the largest integer instead of failing', async () => {
    const db = getDb();
    const ada = await newUser(db);
    await recordUsage(db, ada, { inputTokens: 2_000_000_000, outputTokens: 0, estimated: false });
    await recordUsage(db, ada, { inputTokens: 2_000_000_000, outputTokens: 0, estimated: false });
    expect((await usageToday(db, ada)).inputTokens).toBe(2_147_483_647);
  });

  it('allows the set number of requests per minute for each user', async () => {
    const db = getDb();
    const [ada, bob] = [await newUser(db), await newUser(db)];
    const limit = { requestsPerMinute: 3 };
    for (let request = 1; request <= 3; request += 1) {
      expect(await admitAndEnd(db, ada, limit)).toEqual({ admitted: true });
    }
    const refused = await admitRequest(db, ada, limit);
    expect(refused).toMatchObject({ admitted: false, reason: 'rate' });
    const wait = 'waitSeconds' in refused ? refused.waitSeconds : 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // Refused for the rate, it claimed no stream.
    expect((await db.query('SELECT 1 FROM ai_streams WHERE user_id = $1', [ada])).rows).toEqual([]);
    expect(await admitAndEnd(db, bob, limit)).toEqual({ admitted: true });
  });

  it('counts the minute again once it has passed', async () => {
    const db = getDb();
    const ada = await newUser(db);
    const limit = { requestsPerMinute: 1 };
    expect(await admitAndEnd(db, ada, limit)).toEqual({ admitted: true });
    expect(await admitAndEnd(db, ada, limit)).toMatchObject({ reason: 'rate' });
    await db.query(
      `UPDATE rate_limits SET window_start = now() - interval '61 seconds' WHERE key = $1`,
      [`ai:user:${ada}`],
    );
    expect(await admitAndEnd(db, ada, limit)).toEqual({ admitted: true });
    expect(await requestsCounted(db, ada)).toBe(1);
  });
});
