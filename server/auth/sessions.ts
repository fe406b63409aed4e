import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** Who a session belongs to, as the API handlers see it. */
export interface SessionUser {
  id: string;
  email: string | null;
  name: string | null;
}

/** A live session found by its cookie. */
export interface ActiveSession {
  /** SHA-256 of the cookie value: the row's key. */
  idHash: string;
  user: SessionUser;
  /** The provider's ID token, sent back as `id_token_hint` on sign-out. */
  idToken: string | null;
  /**
   * True when this lookup pushed the expiry back: the cookie's Max-Age is then renewed with it,
   * or an active person would lose the cookie `SESSION_DAYS` after signing in anyway.
   */
  renewed: boolean;
}

/** A session is touched (and its expiry pushed back) at most this often, to spare writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/** The longest cookie value accepted; a real one is 43 characters. */
const MAX_TOKEN_LENGTH = 64;

/** The stored key of a session: only the hash of what the browser holds is kept. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens a session for `userId` and returns the cookie value (256 random bits, base64url). */
export async function createSession(
  db: Queryable,
  input: {
    userId: string;
    days: number;
    userAgent: string | undefined;
    idToken: string | undefined;
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at, user_agent, id_token)
     VALUES ($1, $2, now() + make_interval(days => $3), $4, $5)`,
    [
      hashToken(token),
      input.userId,
      input.days,
      input.userAgent?.slice(0, 500) ?? null,
      input.idToken ?? null,
    ],
  );
  return token;
}

/** The key of the session a cookie value names, or null for a value no session could have. */
export function sessionKey(token: string): string | null {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  return hashToken(token);
}

/** A live session and its user, as `find_session` (migration 0005) returns them. */
export interface SessionRow {
  user_id: string;
  email: string | null;
  name: string | null;
  id_token: string | null;
  last_seen_at: Date;
}

/** The session behind a cookie value, or null if it is unknown, malformed or expired. */
export async function findSession(
  db: Queryable,
  token: string,
  days: number,
): Promise<ActiveSession | null> {
  const idHash = sessionKey(token);
  if (!idHash) return null;
  const { rows } = await db.query<SessionRow>(
    // Migration 0005: the join of sessions and users, live sessions only.
    'SELECT user_id, email, name, id_token, last_seen_at FROM find_session($1)',
    [idHash],
  );
  const row = rows[0];
  return row ? activeSession(db, idHash, row, days) : null;
}

/** A session found by `idHash`, its expiry pushed back when it was last touched long ago. */
export async function activeSession(
  db: Queryable,
  idHash: string,
  row: SessionRow,
  days: number,
): Promise<ActiveSession> {
  const renewed = Date.now() - row.last_seen_at.getTime() > TOUCH_INTERVAL_MS;
  if (renewed) {
    await db.query(
      `UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(days => $2)
        WHERE id_hash = $1`,
      [idHash, days],
    );
  }
  return {
    idHash,
    user: { id: row.user_id, email: row.email, name: row.name },
    idToken: row.id_token,
    renewed,
  };
}

/** Ends a session; its cookie is worthless from now on. */
export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
}

/** Removes expired sessions and abandoned sign-ins; run now and then, not per request. */
export async function deleteExpired(db: Queryable): Promise<void> {
  await db.query('DELETE FROM sessions WHERE expires_at <= now()');
  await db.query(`DELETE FROM login_flows WHERE created_at < now() - interval '1 hour'`);
}

/** The user with this issuer and subject, created on first sign-in; e-mail and name follow the provider. */
export async function upsertUser(
  db: Queryable,
  identity: { issuer: string; subject: string; email: string | null; name: string | null },
): Promise<SessionUser> {
  const { rows } = await db.query<SessionUser>(
    `INSERT INTO users (issuer, subject, email, name) VALUES ($1, $2, $3, $4)
     ON CONFLICT (issuer, subject) DO UPDATE SET email = EXCLUDED.email, name = EXCLUDED.name
     RETURNING id, email, name`,
    [identity.issuer, identity.subject, identity.email, identity.name],
  );
  return rows[0]!;
}
