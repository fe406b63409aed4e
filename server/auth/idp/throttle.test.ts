import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../../db/pglite.ts';
import { hit, retryAfter, type RateRule } from '../../db/rateLimits.ts';
import { loginByEmail, loginByIp, signupByIp } from './throttle.ts';

let db: PgliteDatabase;

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
});

afterAll(async () => {
  await db.close();
});

async function hitsOf(rule: RateRule): Promise<number | undefined> {
  const { rows } = await db.query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1', [
    rule.key,
  ]);
  return rows[0]?.hits;
}

describe('sign-in throttling', () => {
  it('allows ten failures per e-mail and blocks the eleventh attempt for the rest of the window', async () => {
    const rule = loginByEmail('Ten@Example.com');
    for (let failure = 1; failure <= 10; failure += 1) {
      expect(await retryAfter(db, [rule])).toBe(0);
      expect(await hit(db, [rule])).toBe(0);
    }
    const wait = await retryAfter(db, [rule]);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(await hit(db, [rule])).toBeGreaterThan(0);
  });

  it('counts an e-mail the same whatever its case, and keeps no address in the table', async () => {
    await hit(db, [loginByEmail('Case@Example.com')]);
    expect(await hitsOf(loginByEmail('case@example.COM'))).toBe(1);
    const { rows } = await db.query(`SELECT key FROM rate_limits WHERE key ILIKE '%example%'`);
    expect(rows).toHaveLength(0);
  });

  it('starts a new window once the old one has passed', async () => {
    const rule = loginByEmail('reset@example.com');
    for (let failure = 0; failure < 10; failure += 1) await hit(db, [rule]);
    expect(await retryAfter(db, [rule])).toBeGreaterThan(0);
    await db.query(
      `UPDATE rate_limits SET window_start = now() - interval '15 minutes 1 second' WHERE key = $1`,
      [rule.key],
    );
    expect(await retryAfter(db, [rule])).toBe(0);
    expect(await hit(db, [rule])).toBe(0);
    expect(await hitsOf(rule)).toBe(1);
  });

  it('reports the longest wait of several rules and leaves other keys alone', async () => {
    const email = loginByEmail('other@example.com');
    const ip = { ...loginByIp('203.0.113.9'), limit: 2 };
    await hit(db, [email, ip]);
    await hit(db, [email, ip]);
    expect(await retryAfter(db, [email])).toBe(0);
    expect(await retryAfter(db, [email, ip])).toBeGreaterThan(0);
    expect(await retryAfter(db, [loginByIp('203.0.113.10')])).toBe(0);
  });

  it('counts concurrent hits exactly', async () => {
    const rule = signupByIp('198.51.100.7');
    const waits = await Promise.all(Array.from({ length: 25 }, () => hit(db, [rule])));
    expect(await hitsOf(rule)).toBe(25);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(5);
  });

  it('limits sign-ups per address to twenty an hour and sign-ins per address to a hundred', () => {
    expect(signupByIp('x')).toMatchObject({ limit: 20, windowSeconds: 3600 });
    expect(loginByIp('x')).toMatchObject({ limit: 100, windowSeconds: 900 });
    expect(loginByEmail('x@y.z')).toMatchObject({ limit: 10, windowSeconds: 900 });
  });
});
