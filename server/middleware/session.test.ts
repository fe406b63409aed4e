import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SessionCache } from '../auth/sessionCache.ts';
import { deleteSession, hashToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { createErrorHandler } from '../errors.ts';
import { createLogger } from '../logger.ts';
import type { AppEnv, Services } from '../services.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';
import { testUserWithSession } from '../test/users.ts';
import { requireSession, sessionCookieName, sessionOf } from './session.ts';

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

/** Makes a session look last used ten minutes ago, with a day left before it expires. */
async function ageSession(db: Database, token: string): Promise<void> {
  await db.query(
    `UPDATE sessions SET last_seen_at = now() - interval '10 minutes',
       expires_at = now() + interval '1 day' WHERE id_hash = $1`,
    [hashToken(token)],
  );
}

async function expiresInDays(db: Database, token: string): Promise<number> {
  const { rows } = await db.query<{ days: number }>(
    `SELECT EXTRACT(EPOCH FROM (expires_at - now())) / 86400 AS days FROM sessions WHERE id_hash = $1`,
    [hashToken(token)],
  );
  return Number(rows[0]!.days);
}

describeWithServer('the session cookie', (context) => {
  it('gets its full lifetime again whenever the server pushes the expiry back', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    await ageSession(db, client.token!);
    const res = await client.request('GET', '/api/me');
    expect(res.status).toBe(200);
    const cookie = res.headers.get('Set-Cookie') ?? '';
    const days = server.services.config.sessionDays;
    expect(cookie).toContain(`${sessionCookieName(server.url)}=${client.token};`);
    expect(cookie).toMatch(new RegExp(`Max-Age=${days * 24 * 60 * 60}(;|$)`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(await expiresInDays(db, client.token!)).toBeGreaterThan(days - 0.01);
  });

  it('is left alone while the session was used a moment ago, so no request writes', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    expect((await client.request('GET', '/api/me')).status).toBe(200);
    const { rows } = await db.query<{ last_seen_at: Date }>(
      'SELECT last_seen_at FROM sessions WHERE id_hash = $1',
      [hashToken(client.token!)],
    );
    const res = await client.request('GET', '/api/documents');
    expect(res.status).toBe(200);
    expect(res.headers.get('Set-Cookie')).toBeNull();
    const after = await db.query<{ last_seen_at: Date }>(
      'SELECT last_seen_at FROM sessions WHERE id_hash = $1',
      [hashToken(client.token!)],
    );
    expect(after.rows[0]!.last_seen_at).toEqual(rows[0]!.last_seen_at);
  });

  it('is renewed on an error answer too, as the session was still used', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    await ageSession(db, client.token!);
    const res = await client.request('GET', '/api/documents/not-a-uuid');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('Set-Cookie') ?? '').toContain(`=${client.token};`);
  });
});

describe('requireSession', () => {
  /** An app whose only route, `POST /api/own`, is exempt; every route answers `reached`. */
  function guarded(): Hono<AppEnv> {
    const services = { publicUrl: PUBLIC_URL, config: { sessionDays: 1 } } as Services;
    const app = new Hono<AppEnv>();
    app.onError(createErrorHandler(createLogger('silent')));
    app.use('/api/*', requireSession(services, ['POST /api/own']));
    app.all('/api/*', (c) => c.text('reached'));
    return app;
  }

  it('lets an exempt route through without a session and without a lookup', async () => {
    const res = await guarded().request('/api/own', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('reached');
  });

  it.each([
    ['another method', 'GET', '/api/own'],
    ['another route', 'POST', '/api/other'],
    ['a trailing slash', 'POST', '/api/own/'],
    ['another case', 'POST', '/api/OWN'],
    ['a longer path', 'POST', '/api/own/more'],
  ])('refuses %s without a session', async (_name, method, path) => {
    const res = await guarded().request(path, { method });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });
});
