import { expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { tokenHash } from '../sharing/tokens.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testUser } from '../test/users.ts';
import { documentAccess, documentRole } from './access.ts';

async function ownedDocument(db: Database, ownerId: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO documents (owner_id, title, content) VALUES ($1, 'Shared', '{"type":"doc"}'::jsonb)
     RETURNING id`,
    [ownerId],
  );
  return rows[0]!.id;
}

describeEachDatabase('documentRole', (getDb) => {
  it('is the highest of owner, a share and the current link, and nothing in the trash but the owner', async () => {
    const db = getDb();
    const owner = (await testUser(db)).id;
    const shared = (await testUser(db)).id;
    const linked = (await testUser(db)).id;
    const stranger = (await testUser(db)).id;
    const id = await ownedDocument(db, owner);
    expect(await documentRole(db, owner, id)).toBe('owner');
    expect(await documentRole(db, stranger, id)).toBeNull();
    expect(await documentAccess(db, stranger, id)).toBeNull();

    await db.query(
      `INSERT INTO document_shares (document_id, user_id, role) VALUES ($1, $2, 'viewer')`,
      [id, shared],
    );
    expect(await documentRole(db, shared, id)).toBe('viewer');
    expect(await documentAccess(db, shared, id)).toBe('read');

    // The link's role applies to those who came through this link, and to its current role.
    const first = tokenHash('first');
    await db.query(
      `INSERT INTO share_links (document_id, role, nonce, token_hash) VALUES ($1, 'viewer', $2, $3)`,
      [id, Buffer.alloc(32), first],
    );
    await db.query(
      `INSERT INTO share_link_members (document_id, user_id, token_hash) VALUES ($1, $2, $3), ($1, $4, $3)`,
      [id, linked, first, shared],
    );
    expect(await documentRole(db, linked, id)).toBe('viewer');
    await db.query(`UPDATE share_links SET role = 'editor' WHERE document_id = $1`, [id]);
    expect(await documentRole(db, linked, id)).toBe('editor');
    // A viewer by share who also came in through an editing link edits.
    expect(await documentRole(db, shared, id)).toBe('editor');
    expect(await documentAccess(db, shared, id)).toBe('write');

    // A new link stops the old one: its people lose what it gave them, and only that.
    await db.query(`UPDATE share_links SET token_hash = $2 WHERE document_id = $1`, [
      id,
      tokenHash('second'),
    ]);
    expect(await documentRole(db, linked, id)).toBeNull();
    expect(await documentRole(db, shared, id)).toBe('viewer');

    await db.query('UPDATE documents SET deleted_at = now() WHERE id = $1', [id]);
    expect(await documentRole(db, shared, id)).toBeNull();
    expect(await documentRole(db, owner, id)).toBeNull();
    expect(await documentRole(db, owner, id, { trash: true })).toBe('owner');
    expect(await documentRole(db, shared, id, { trash: true })).toBeNull();
  });

  it('names nothing for an id that is no UUID or no document', async () => {
    const db = getDb();
    const owner = (await testUser(db)).id;
    expect(await documentRole(db, owner, 'not-a-uuid')).toBeNull();
    expect(await documentRole(db, owner, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});
