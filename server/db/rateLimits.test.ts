import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from './migrate.ts';
import { openPglite, type PgliteDatabase } from './pglite.ts';
import { hit } from './rateLimits.ts';

let db: PgliteDatabase;

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
});

afterAll(async () => {
  await db.close();
});

it('sweeps rows a day old whoever counted them, and keeps the others', async () => {
  await db.query(
    `INSERT INTO rate_limits (key, window_start, hits) VALUES
       ('idp:login:ip:203.0.113.1', now() - interval '2 days', 3),
       ('ai:user:stale', now() - interval '2 days', 3),
       ('files:user:stale', now() - interval '25 hours', 3),
       ('files:user:recent', now() - interval '2 hours', 3)`,
  );
  // The first hit of a process sweeps.
  await hit(db, [{ key: 'files:user:now', limit: 5, windowSeconds: 60 }]);
  const { rows } = await db.query<{ key: string }>('SELECT key FROM rate_limits ORDER BY key');
  expect(rows.map((row) => row.key)).toEqual(['files:user:now', 'files:user:recent']);
});
