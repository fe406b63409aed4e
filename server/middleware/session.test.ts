import { expect, it } from 'vitest';
import { SessionCache } from '../auth/sessionCache.ts';
import { deleteSession, hashToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import type { Services } from '../services.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testUserWithSession } from '../test/users.ts';
import { sessionCookieName, sessionOf } from './session.ts';

const PUBLIC_URL = 'http://localhost:3000';

const newSession = async (db: Database) => (await testUserWithSession(db)).token;

/** What `sessionOf` needs of the services, with or without a cache. */
function servicesOf(db: Database, sessionCache?: SessionCache): Services {
  return { db, publicUrl: PUBLIC_URL, config: { sessionDays: 1 }, sessionCache } as Services;
}

const lookUp = (services: Services, token: string) =>
  sessionOf(services, (name) => (name === sessionCookieName(PUBLIC_URL) ? token : undefined));

describeEachDatabase('sessionOf', (getDb) => {
  it('without a cache, sees a session end at once however it ended', async () => {
    const db = getDb();
    const services = servicesOf(db);
    const token = await newSession(db);
    expect(await lookUp(services, token)).not.toBeNull();
    await db.query('DELETE FROM sessions WHERE id_hash = $1', [hashToken(token)]);
    expect(await lookUp(services, token)).toBeNull();
  });

  it('with a cache, ends a signed-out session at once and trusts a found one for 2 s', async () => {
    const db = getDb();
    let now = 1_000_000;
    const cache = new SessionCache(() => now);
    const services = servicesOf(db, cache);

    const signedOut = await newSession(db);
    expect(await lookUp(services, signedOut)).not.toBeNull();
    await deleteSession(db, hashToken(signedOut));
    cache.forget(hashToken(signedOut));
    expect(await lookUp(services, signedOut)).toBeNull();

    // Ended behind the server's back (by hand in the database): believed until the trust runs out.
    const removed = await newSession(db);
    expect(await lookUp(services, removed)).not.toBeNull();
    await db.query('DELETE FROM sessions WHERE id_hash = $1', [hashToken(removed)]);
    now += 1_900;
    expect(await lookUp(services, removed)).not.toBeNull();
    now += 200;
    expect(await lookUp(services, removed)).toBeNull();
  });

  it('refuses a cookie no session could have, without asking the database', async () => {
    const services = servicesOf(getDb(), new SessionCache());
    expect(await lookUp(services, '')).toBeNull();
    expect(await lookUp(services, 'x'.repeat(10_000))).toBeNull();
  });
});
