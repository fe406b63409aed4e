import {
  ROLES,
  type GrantedRole,
  type Person,
  type Role,
  type SharingState,
} from '../../common/api/sharing.ts';
import type { Database, Queryable } from '../db/database.ts';
import { documentRole } from '../documents/access.ts';
import { tokenHash, type ShareTokens } from './tokens.ts';

/** A change the owner made, with the sharing state after it. */
export interface SharingChange {
  state: SharingState;
  /** Whether someone may have lost access or been lowered: live sockets must be checked again. */
  narrowed: boolean;
}

/** What a change answers: done, 'missing' for anyone but the owner, or why it could not be done. */
export type Outcome<Refusal extends string = never> = SharingChange | 'missing' | Refusal;

/** The settings of a published page. */
export interface PublishSettings {
  indexable: boolean;
  expiresAt: Date | null;
}

interface PersonRow {
  id: string;
  name: string;
  email: string;
}

/** A person's columns as the share dialog shows them: an account may lack a name or address. */
const PERSON_COLUMNS = `u.id, coalesce(u.name, '') AS name, coalesce(u.email, '') AS email`;

const rank = (role: Role) => ROLES.indexOf(role);

/**
 * Who a document is shared with, its link and its published page (docs/ARCHITECTURE.md "Data"):
 * the one writer of `document_shares`, `share_links`, `share_link_members` and `published_pages`.
 * Every change is the owner's alone, decided by {@link documentRole}; anyone else is told the
 * document is missing ('missing'), whatever their role.
 */
export class ShareStore {
  constructor(
    private readonly db: Database,
    private readonly tokens: ShareTokens,
    /** The origin addresses are made on, without a trailing slash. */
    private readonly publicUrl: string,
  ) {}

  /** The account with this address, matched regardless of case; null when none has it. */
  async findPerson(email: string, db: Queryable = this.db): Promise<Person | null> {
    // Addresses are not unique across identity providers; the oldest account answers, always the same.
    const { rows } = await db.query<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM users u WHERE lower(u.email) = lower($1)
       ORDER BY u.created_at, u.id LIMIT 1`,
      [email],
    );
    return rows[0] ?? null;
  }

  /** The document's sharing state, for its owner; null for anyone else and any other id. */
  async state(ownerId: string, documentId: string): Promise<SharingState | null> {
    if ((await documentRole(this.db, ownerId, documentId)) !== 'owner') return null;
    return this.read(this.db, documentId);
  }

  /** Shares with the account of `email` at `role`, or changes the role of a share there is. */
  sharePerson(
    ownerId: string,
    documentId: string,
    email: string,
    role: GrantedRole,
  ): Promise<Outcome<'no-account' | 'self'>> {
    return this.change(ownerId, documentId, async (tx) => {
      const person = await this.findPerson(email, tx);
      if (!person) return 'no-account';
      if (person.id === ownerId) return 'self';
      const before = await this.shareRole(tx, documentId, person.id);
      await tx.query(
        `INSERT INTO document_shares (document_id, user_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (document_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        [documentId, person.id, role],
      );
      return before !== null && rank(role) < rank(before);
    });
  }

  /** A new role for someone the document is shared with; 'not-shared' for anyone else. */
  changeRole(
    ownerId: string,
    documentId: string,
    userId: string,
    role: GrantedRole,
  ): Promise<Outcome<'not-shared'>> {
    return this.change(ownerId, documentId, async (tx) => {
      const before = await this.shareRole(tx, documentId, userId);
      if (before === null) return 'not-shared';
      await tx.query(
        'UPDATE document_shares SET role = $3 WHERE document_id = $1 AND user_id = $2',
        [documentId, userId, role],
      );
      return rank(role) < rank(before);
    });
  }

  /**
   * Takes a person out: their share, and their way in through the link, so that removing someone
   * the owner sees ends their access (while the link is on they may come back through it; a reset
   * stops that). 'not-shared' when they had neither.
   */
  removePerson(
    ownerId: string,
    documentId: string,
    userId: string,
  ): Promise<Outcome<'not-shared'>> {
    return this.change(ownerId, documentId, async (tx) => {
      const share = await tx.query(
        'DELETE FROM document_shares WHERE document_id = $1 AND user_id = $2',
        [documentId, userId],
      );
      const member = await tx.query(
        'DELETE FROM share_link_members WHERE document_id = $1 AND user_id = $2',
        [documentId, userId],
      );
      return share.rowCount + member.rowCount > 0 || 'not-shared';
    });
  }

  /** Turns the link on at `role`, or sets the role of the link there is (its address stays). */
  setLink(ownerId: string, documentId: string, role: GrantedRole): Promise<Outcome> {
    return this.change<never>(ownerId, documentId, async (tx) => {
      const { rows } = await tx.query<{ role: GrantedRole }>(
        'SELECT role FROM share_links WHERE document_id = $1 FOR UPDATE',
        [documentId],
      );
      const before = rows[0]?.role;
      if (before === undefined) {
        const { nonce, hash } = this.tokens.issue('link');
        await tx.query(
          'INSERT INTO share_links (document_id, role, nonce, token_hash) VALUES ($1, $2, $3, $4)',
          [documentId, role, nonce, hash],
        );
        return false;
      }
      await tx.query('UPDATE share_links SET role = $2 WHERE document_id = $1', [documentId, role]);
      return rank(role) < rank(before);
    });
  }

  /** Gives the link a new address: the old one and everyone who came in through it stop. */
  resetLink(ownerId: string, documentId: string): Promise<Outcome<'no-link'>> {
    return this.change(ownerId, documentId, async (tx) => {
      const { nonce, hash } = this.tokens.issue('link');
      const reset = await tx.query(
        `UPDATE share_links SET nonce = $2, token_hash = $3, created_at = now()
         WHERE document_id = $1`,
        [documentId, nonce, hash],
      );
      if (reset.rowCount === 0) return 'no-link';
      // Their rows no longer match the link's hash and grant nothing; they go with it.
      await tx.query('DELETE FROM share_link_members WHERE document_id = $1', [documentId]);
      return true;
    });
  }

  /** Turns the link off: its address and everyone who came in through it stop. */
  deleteLink(ownerId: string, documentId: string): Promise<Outcome> {
    return this.change<never>(ownerId, documentId, async (tx) => {
      const link = await tx.query('DELETE FROM share_links WHERE document_id = $1', [documentId]);
      await tx.query('DELETE FROM share_link_members WHERE document_id = $1', [documentId]);
      return link.rowCount > 0;
    });
  }

  /**
   * Publishes the document, or changes its published page's settings: the address stays while it
   * is published, and an unpublished document published again gets a new one.
   */
  publish(ownerId: string, documentId: string, settings: PublishSettings): Promise<Outcome> {
    return this.change<never>(ownerId, documentId, async (tx) => {
      const { nonce, hash } = this.tokens.issue('page');
      await tx.query(
        `INSERT INTO published_pages (document_id, nonce, token_hash, indexable, expires_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (document_id) DO UPDATE
           SET indexable = EXCLUDED.indexable, expires_at = EXCLUDED.expires_at`,
        [documentId, nonce, hash, settings.indexable, settings.expiresAt],
      );
      // The page is read per request, by nobody's socket: nothing live to close.
      return false;
    });
  }

  /** Unpublishes: the page's address stops at once and is never served again. */
  unpublish(ownerId: string, documentId: string): Promise<Outcome> {
    return this.change<never>(ownerId, documentId, async (tx) => {
      await tx.query('DELETE FROM published_pages WHERE document_id = $1', [documentId]);
      return false;
    });
  }

  /**
   * `userId` comes in through the link whose token is `token`: from now on they hold the link's
   * role while it keeps this address. The owner gets their own role and no row. Null when no
   * link has this token or its document is in the trash.
   */
  async join(userId: string, token: string): Promise<{ documentId: string; role: Role } | null> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ document_id: string; token_hash: Uint8Array }>(
        `SELECT l.document_id, l.token_hash FROM share_links l
           JOIN documents d ON d.id = l.document_id AND d.deleted_at IS NULL
         WHERE l.token_hash = $1
         FOR KEY SHARE OF d`,
        [tokenHash(token)],
      );
      const link = rows[0];
      if (!link) return null;
      const documentId = link.document_id;
      if ((await documentRole(tx, userId, documentId)) !== 'owner') {
        await tx.query(
          `INSERT INTO share_link_members (document_id, user_id, token_hash) VALUES ($1, $2, $3)
           ON CONFLICT (document_id, user_id)
             DO UPDATE SET token_hash = EXCLUDED.token_hash,
               joined_at = CASE WHEN share_link_members.token_hash = EXCLUDED.token_hash
                 THEN share_link_members.joined_at ELSE now() END`,
          [documentId, userId, link.token_hash],
        );
      }
      const role = await documentRole(tx, userId, documentId);
      return role === null ? null : { documentId, role };
    });
  }

  /**
   * Runs `work` in one transaction for the document's owner, and reads the state after it.
   * `work` answers whether it narrowed anyone's access, or why it could not be done.
   */
  private async change<Refusal extends string = never>(
    ownerId: string,
    documentId: string,
    work: (tx: Queryable) => Promise<boolean | Refusal>,
  ): Promise<Outcome<Refusal>> {
    return this.db.transaction(async (tx) => {
      if ((await documentRole(tx, ownerId, documentId)) !== 'owner') return 'missing';
      // Held until the commit, so the document cannot be deleted under the rows written for it.
      const held = await tx.query('SELECT 1 FROM documents WHERE id = $1 FOR KEY SHARE', [
        documentId,
      ]);
      if (held.rowCount === 0) return 'missing';
      const outcome = await work(tx);
      if (typeof outcome === 'string') return outcome;
      return { state: await this.read(tx, documentId), narrowed: outcome };
    });
  }

  private async shareRole(
    tx: Queryable,
    documentId: string,
    userId: string,
  ): Promise<GrantedRole | null> {
    const { rows } = await tx.query<{ role: GrantedRole }>(
      'SELECT role FROM document_shares WHERE document_id = $1 AND user_id = $2 FOR UPDATE',
      [documentId, userId],
    );
    return rows[0]?.role ?? null;
  }

  /** The state of a document the caller has found to be the owner's. */
  private async read(db: Queryable, documentId: string): Promise<SharingState> {
    // One after another: a transaction is one connection, which runs one statement at a time.
    const owner = await db.query<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM documents d JOIN users u ON u.id = d.owner_id WHERE d.id = $1`,
      [documentId],
    );
    const people = await db.query<PersonRow & { role: GrantedRole }>(
      `SELECT ${PERSON_COLUMNS}, s.role FROM document_shares s JOIN users u ON u.id = s.user_id
       WHERE s.document_id = $1 ORDER BY s.created_at, u.id`,
      [documentId],
    );
    const link = await db.query<{ role: GrantedRole; nonce: Uint8Array; created_at: Date }>(
      'SELECT role, nonce, created_at FROM share_links WHERE document_id = $1',
      [documentId],
    );
    const page = await db.query<{
      nonce: Uint8Array;
      indexable: boolean;
      expires_at: Date | null;
      published_at: Date;
    }>(
      `SELECT nonce, indexable, expires_at, published_at FROM published_pages
       WHERE document_id = $1`,
      [documentId],
    );
    const linkRow = link.rows[0];
    const pageRow = page.rows[0];
    return {
      owner: owner.rows[0]!,
      people: people.rows,
      link: linkRow
        ? {
            role: linkRow.role,
            url: `${this.publicUrl}/s/${this.tokens.tokenOf('link', Buffer.from(linkRow.nonce))}`,
            createdAt: linkRow.created_at.toISOString(),
          }
        : null,
      published: pageRow
        ? {
            url: `${this.publicUrl}/p/${this.tokens.tokenOf('page', Buffer.from(pageRow.nonce))}`,
            indexable: pageRow.indexable,
            expiresAt: pageRow.expires_at?.toISOString() ?? null,
            publishedAt: pageRow.published_at.toISOString(),
          }
        : null,
    };
  }
}
