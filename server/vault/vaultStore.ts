import type { DocumentRecord } from '../../common/api/documents.ts';
import type { VaultEntry } from '../../common/api/vault.ts';
import type { Queryable } from '../db/database.ts';
import { insertImported, type ImportedDocument } from '../documents/documentRows.ts';

/** A document of an import batch, its content checked. */
export type NewVaultDocument = ImportedDocument;

/** Most documents one export lists; far beyond a vault anyone writes by hand. */
export const VAULT_LIST_LIMIT = 20_000;

/**
 * What an import writes and an export reads: the owner's own documents only. A vault is one's
 * own notes, so documents others shared are left out, and an id of theirs sent to an export
 * reads nothing (`owner_id`, not a role: sharing gives no way in here).
 */
export class VaultStore {
  constructor(private readonly db: Queryable) {}

  /**
   * Creates a batch of documents under the ids the client chose, in one statement: on PGlite one
   * INSERT per row cost seven times as much. What became of each id: `created`; `existing`, the
   * owner's from an earlier try of the same batch; `taken`, another owner's.
   */
  async createMany(
    ownerId: string,
    documents: readonly NewVaultDocument[],
  ): Promise<Map<string, 'created' | 'existing' | 'taken'>> {
    const outcomes = new Map<string, 'created' | 'existing' | 'taken'>();
    for (const id of await insertImported(this.db, ownerId, documents)) outcomes.set(id, 'created');
    const others = documents.map((d) => d.id).filter((id) => !outcomes.has(id));
    if (others.length > 0) {
      const { rows: existing } = await this.db.query<{ id: string }>(
        `SELECT id FROM documents WHERE owner_id = $1 AND id = ANY(string_to_array($2, ',')::uuid[])`,
        [ownerId, others.join(',')],
      );
      const mine = new Set(existing.map((row) => row.id));
      for (const id of others) outcomes.set(id, mine.has(id) ? 'existing' : 'taken');
    }
    return outcomes;
  }

  /** The owner's live documents in `folder` and below ('' for all), in a fixed order. */
  async list(ownerId: string, folder: string): Promise<VaultEntry[]> {
    // LIKE's wildcards in a folder name must match themselves.
    const below = `${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    const { rows } = await this.db.query<{
      id: string;
      title: string;
      folder: string;
      created_at: Date;
      updated_at: Date;
    }>(
      `SELECT id, title, folder, created_at, updated_at FROM documents
        WHERE owner_id = $1 AND deleted_at IS NULL
          AND ($2 = '' OR folder = $2 OR folder LIKE $3)
        ORDER BY folder, title, created_at, id
        LIMIT ${VAULT_LIST_LIMIT}`,
      [ownerId, folder, below],
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      folder: row.folder,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    }));
  }

  /** The content of the owner's live documents among `ids`; others are left out. */
  async contents(
    ownerId: string,
    ids: readonly string[],
  ): Promise<{ id: string; content: DocumentRecord['content'] }[]> {
    const { rows } = await this.db.query<{ id: string; content: DocumentRecord['content'] }>(
      `SELECT id, content FROM documents
        WHERE owner_id = $1 AND deleted_at IS NULL AND id = ANY(string_to_array($2, ',')::uuid[])`,
      // The ids are UUIDs (the schema checked them), so a comma cannot be inside one.
      [ownerId, ids.join(',')],
    );
    return rows;
  }
}
