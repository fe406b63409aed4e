import { randomUUID } from 'node:crypto';
import { createSession, upsertUser, type SessionUser } from '../auth/sessions.ts';
import type { GrantedRole } from '../../common/api/sharing.ts';
import type { Queryable } from '../db/database.ts';

/** A new user as the provider would have created them: the factory behind storage and API tests. */
export function testUser(db: Queryable, name = 'Ada'): Promise<SessionUser> {
  return upsertUser(db, {
    issuer: 'http://test.invalid/issuer',
    subject: randomUUID(),
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
    name,
  });
}

/** A new user with a fresh session, and the session's cookie value. */
export async function testUserWithSession(
  db: Queryable,
  name = 'Ada',
): Promise<{ user: SessionUser; token: string }> {
  const user = await testUser(db, name);
  const token = await createSession(db, {
    userId: user.id,
    days: 30,
    userAgent: 'tests',
    idToken: undefined,
  });
  return { user, token };
}

/** Shares `documentId` with `userId` as `role`, or changes the role of the share there is. */
export async function shareWith(
  db: Queryable,
  documentId: string,
  userId: string,
  role: GrantedRole,
): Promise<void> {
  await db.query(
    `INSERT INTO document_shares (document_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (document_id, user_id) DO UPDATE SET role = excluded.role`,
    [documentId, userId, role],
  );
}
