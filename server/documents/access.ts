import { ROLES, type Role } from '../../common/api/sharing.ts';
import type { Queryable } from '../db/database.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a person may do with a live document: write (and read), only read, or nothing at all. */
export type DocumentAccess = 'write' | 'read' | null;

/**
 * The documents `userParam` (a query parameter such as `$1`) may read, live or trashed, as a
 * subquery: the ids in the `document_roles` view (migration 0011), which is the one definition of
 * who holds which role. Lists, search, backlinks, wikilinks and files filter by it; add
 * `deleted_at IS NULL` where the trash must stay out (everyone but the owner, below). With
 * `least`, only the documents where the user holds at least that role (`editor`: may write).
 */
export function readableIds(userParam: string, least: Role = 'viewer'): string {
  const rank = ROLES.indexOf(least) + 1;
  return `SELECT document_id FROM document_roles WHERE user_id = ${userParam}${rank > 1 ? ` AND rank >= ${rank}` : ''}`;
}

/**
 * The reader's role in the document of `documentColumn` as a number (3 owner, 2 editor, 1
 * viewer, null none), for a query that lists documents with each one's role; {@link roleOfRank}
 * names it.
 */
export function roleRank(documentColumn: string, userParam: string): string {
  return `(SELECT max(rank) FROM document_roles r WHERE r.document_id = ${documentColumn} AND r.user_id = ${userParam})`;
}

/** The role a {@link roleRank} column holds. */
export function roleOfRank(rank: number | null): Role | null {
  return rank === null ? null : (ROLES[rank - 1] ?? null);
}

/**
 * A person's role in one document (docs/PRODUCT.md "Sharing"): the highest of owner, a share
 * with them, and the document's current link if they came in through it. Null for a document
 * that does not exist, is someone else's, or is in the trash, so an answer never tells which.
 * With `trash`, the owner keeps their role in a trashed document (to see, restore or delete
 * it); nobody else does. Every route, the live socket and the published page ask this or filter
 * by {@link readableIds}: nothing else decides access.
 */
export async function documentRole(
  db: Queryable,
  userId: string,
  documentId: string,
  options: { trash?: boolean } = {},
): Promise<Role | null> {
  // PostgreSQL would throw on a malformed uuid; such an id names nothing.
  if (!UUID.test(documentId)) return null;
  const { rows } = await db.query<{ rank: number | null; trashed: boolean }>(
    // The same rank as roleRank, through the migration's function, whose plan is kept.
    `SELECT document_role_rank(d.id, $2) AS rank,
            d.deleted_at IS NOT NULL AS trashed
       FROM documents d WHERE d.id = $1`,
    [documentId, userId],
  );
  const row = rows[0];
  if (!row || row.rank === null) return null;
  const role = roleOfRank(row.rank);
  if (row.trashed) return options.trash && role === 'owner' ? role : null;
  return role;
}

/**
 * What the live socket lets a person do (server/collab/): editors and the owner write, viewers
 * read (a read-only connection), anyone else is refused. A trashed document opens for nobody.
 */
export async function documentAccess(
  db: Queryable,
  userId: string,
  documentId: string,
): Promise<DocumentAccess> {
  const role = await documentRole(db, userId, documentId);
  if (role === null) return null;
  return role === 'viewer' ? 'read' : 'write';
}
