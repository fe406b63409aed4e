import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { upsertUser } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import {
  budgetWait,
  claimStream,
  countRequest,
  recordUsage,
  releaseStream,
  usageToday,
} from './usageLimits.ts';

async function newUser(db: Database): Promise<string> {
  const user = await upsertUser(db, {
    issuer: 'http://test.invalid/issuer',
    subject: randomUUID(),
    email: null,
    name: null,
  });
  return user.id;
}

describeEachDatabase('AI usage limits', (getDb) => {
  it('lets one stream per user run, and the next once it is freed', async () => {
    const db = getDb();
    const [ada, bob] = [await newUser(db), await newUser(db)];
    const first = await claimStream(db, ada, 'host/1', 180);
    expect(first).toEqual(expect.any(String));
    expect(await claimStream(db, ada, 'host/2', 180)).toBeNull();
    expect(await claimStream(db, bob, 'host/2', 180)).toEqual(expect.any(String));
    await releaseStream(db, ada, first!);
    expect(await claimStream(db, ada, 'host/2', 180)).toEqual(expect.any(String));
  });

  it('takes over a claim older than the stale limit, which its old holder then cannot free', async () => {
    const db = getDb();
    const ada = await newUser(db);
    const dead = (await claimStream(db, ada, 'crashed/1', 180))!;
    await db.query(
      `UPDATE ai_streams SET started_at = now() - interval '181 seconds' WHERE user_id = $1`,
      [ada],
    );
    const live = await claimStream(db, ada, 'host/2', 180);
    expect(live).toEqual(expect.any(String));
    await releaseStream(db, ada, dead);
    expect(await claimStream(db, ada, 'host/3', 180)).toBeNull();
    const { rows } = await db.query<{ instance: string }>(
      'SELECT instance FROM ai_streams WHERE user_id = $1',
      [ada],
    );
    expect(rows).toEqual([{ instance: 'host/2' }]);
  });

  it('adds up requests and tokens per day, and refuses until midnight UTC once the budget is spent', async () => {
    const db = getDb();
    const [ada, bob] = [await newUser(db), await newUser(db)];
    expect(await budgetWait(db, ada, 1000)).toBe(0);
    await recordUsage(db, ada, { inputTokens: 400, outputTokens: 100, estimated: false });
    await recordUsage(db, ada, { inputTokens: 300, outputTokens: 199, estimated: true });
    expect(await usageToday(db, ada)).toEqual({ requests: 2, inputTokens: 700, outputTokens: 299 });
    expect(await budgetWait(db, ada, 1000)).toBe(0);
    await recordUsage(db, ada, { inputTokens: 0, outputTokens: 1, estimated: false });
    const wait = await budgetWait(db, ada, 1000);
    const { rows } = await db.query<{ seconds: number }>(
      `SELECT EXTRACT(EPOCH FROM (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day'
         - (now() AT TIME ZONE 'UTC')))::float8 AS seconds`,
    );
    expect(Math.abs(wait - rows[0]!.seconds)).toBeLessThanOrEqual(2);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(86400);
    expect(await budgetWait(db, bob, 1000)).toBe(0);
  });

  it('counts yesterday apart from today', async () => {
    const db = getDb();
    const ada = await newUser(db);
    await db.query(
      `INSERT INTO ai_usage (user_id, day, requests, input_tokens, output_tokens)
       VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 1, 9, 999999, 999999)`,
      [ada],
    );
    expect(await budgetWait(db, ada, 1000)).toBe(0);
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
    for (let request = 1; request <= 3; request += 1)
      expect(await countRequest(db, ada, 3)).toBe(0);
    const wait = await countRequest(db, ada, 3);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await countRequest(db, bob, 3)).toBe(0);
  });
});
