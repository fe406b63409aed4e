import type { Queryable } from '../../db/database.ts';
import { hashPassword, verifyNothing, verifyPassword } from './password.ts';

/** An account of the embedded provider, without its password hash. */
export interface IdpAccount {
  id: string;
  email: string;
  name: string;
}

/** What the create-account form collects. */
export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Creates an account; undefined when the e-mail (compared case-insensitively) is taken. */
export async function createAccount(
  db: Queryable,
  account: NewAccount,
): Promise<IdpAccount | undefined> {
  const passwordHash = await hashPassword(account.password);
  const { rows } = await db.query<IdpAccount>(
    `INSERT INTO idp_accounts (email, name, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING id, email, name`,
    [account.email, account.name, passwordHash],
  );
  return rows[0];
}

/** The account with this id, or undefined (also for ids that are not UUIDs). */
export async function findAccountById(db: Queryable, id: string): Promise<IdpAccount | undefined> {
  if (!UUID.test(id)) return undefined;
  const { rows } = await db.query<IdpAccount>(
    'SELECT id, email, name FROM idp_accounts WHERE id = $1',
    [id],
  );
  return rows[0];
}

/**
 * The account whose e-mail and password match, or undefined. Takes as long for an unknown e-mail
 * as for a wrong password.
 */
export async function authenticate(
  db: Queryable,
  email: string,
  password: string,
): Promise<IdpAccount | undefined> {
  const { rows } = await db.query<IdpAccount & { password_hash: string }>(
    'SELECT id, email, name, password_hash FROM idp_accounts WHERE lower(email) = lower($1)',
    [email],
  );
  const row = rows[0];
  if (!row) return verifyNothing(password).then(() => undefined);
  if (!(await verifyPassword(password, row.password_hash))) return undefined;
  return { id: row.id, email: row.email, name: row.name };
}
