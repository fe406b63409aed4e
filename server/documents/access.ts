import type { Queryable } from '../db/database.ts';

/** What a person may do with a document: write (and read), only read, or nothing at all. */
export type DocumentAccess = 'write' | 'read' | null;

/**
 * The one place that decides who may open a document, live (server/collab/) or later through
 * sharing. Today a document is its owner's alone: the owner may read and write it, nobody else
 * may see it. A document in the trash or one that does not exist gives null, the same as someone
 * else's, so an answer never tells which it was. Sharing extends this function (a share row
 * granting `read` or `write`), and every live connection follows it: admission asks it, and
 * open sockets are checked against it again (CollabEngine.revalidate).
 */
export async function documentAccess(
  db: Queryable,
  userId: string,
  documentId: string,
): Promise<DocumentAccess> {
  const { rows } = await db.query<{ owner_id: string }>(
    'SELECT owner_id FROM documents WHERE id = $1 AND deleted_at IS NULL',
    [documentId],
  );
  const row = rows[0];
  if (!row) return null;
  return row.owner_id === userId ? 'write' : null;
}
