import type { DocumentContent } from '../../common/api/documents.ts';
import type { Queryable } from '../db/database.ts';
import { SEARCH_VECTOR } from './documentStore.ts';
import { documentNode, plainTextOf, type ValidContent } from './validateContent.ts';

/**
 * The writes to `documents` that other modules ask for: content derived from Yjs state, the
 * links bookkeeping and a vault's batch insert. Each takes the caller's `Queryable`, so that it
 * lands in the caller's transaction, and none checks access: the caller has (documentStore.ts
 * and access.ts answer for who may). Together with DocumentStore, the only code that writes
 * the table (oneWriter.test.ts keeps it so).
 */

/** A document of an imported batch, under the id the client chose, its content checked. */
export interface ImportedDocument {
  id: string;
  title: string;
  folder: string;
  content: ValidContent;
}

/** Marks document `id` as having Yjs state, the state stored in the same transaction. */
export async function markHasYjs(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE documents SET has_yjs = true WHERE id = $1', [id]);
}

/**
 * Replaces the content of document `id` by `content` (derived from its Yjs state, or with its
 * links renamed), the version one up; the caller holds the row. The text and search index follow
 * from the version, off this path (DocumentStore.index). Returns the new version, null when the
 * document is gone.
 */
export async function replaceContent(
  db: Queryable,
  id: string,
  content: DocumentContent,
): Promise<number | null> {
  const { rows } = await db.query<{ version: number }>(
    `UPDATE documents SET content = $2::jsonb, version = version + 1, updated_at = now()
      WHERE id = $1 RETURNING version`,
    [id, JSON.stringify(content)],
  );
  return rows[0]?.version ?? null;
}

/**
 * Records that the links of document `id` are read from `version`, only when they were behind
 * it; false when another rebuild got there first (or the document is gone).
 */
export async function advanceLinksVersion(
  db: Queryable,
  id: string,
  version: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE documents SET links_version = $2 WHERE id = $1 AND links_version < $2`,
    [id, version],
  );
  return rowCount > 0;
}

/**
 * Creates a batch of the owner's documents at version 1, indexed, in one statement (on PGlite one
 * INSERT per row cost seven times as much); an id already taken, by anyone, is skipped. Returns
 * the ids created.
 */
export async function insertImported(
  db: Queryable,
  ownerId: string,
  documents: readonly ImportedDocument[],
): Promise<string[]> {
  // The contents are JSON text already: spliced in rather than parsed and written again.
  const rows = documents.map(
    (d) =>
      `{"id":${JSON.stringify(d.id)},"title":${JSON.stringify(d.title)},"folder":${JSON.stringify(d.folder)},"plain":${JSON.stringify(plainTextOf(documentNode(d.content)))},"content":${d.content.jsonText}}`,
  );
  const { rows: created } = await db.query<{ id: string }>(
    `INSERT INTO documents (id, owner_id, title, folder, content, plain_text, search, indexed_version)
     SELECT r.id, $1, r.title, r.folder, r.content, r.plain, ${SEARCH_VECTOR('r.title', 'r.plain')}, 1
       FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, title text, folder text, content jsonb, plain text)
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [ownerId, `[${rows.join(',')}]`],
  );
  return created.map((row) => row.id);
}
