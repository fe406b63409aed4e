import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { byteaOf, type Bytea } from '../db/bytea.ts';
import type { Database, Queryable } from '../db/database.ts';
import { markHasYjs, replaceContent } from '../documents/documentRows.ts';
import { recordClients } from '../versions/versionStore.ts';
import { canonicalContent, CONTENT_FIELD, yDocFromContent } from './yjsContent.ts';

/** A document's Yjs state as loaded: the Y.Doc and what compaction needs to know of the rows. */
export interface LoadedState {
  doc: Y.Doc;
  /** The snapshot row's bytes as read, to tell at compaction whether another instance wrote since. */
  snapshot: Uint8Array;
  /** The update rows read (ids), folded into the next snapshot this instance writes. */
  updateIds: string[];
  /**
   * `documents.content` as stored, to tell whether a store changes it: made canonical only then
   * (canonicalText), not on the way to the document's first sync.
   */
  content: DocumentContent;
  /**
   * The snapshot's size plus the updates' sizes: about the Yjs state's size, known without
   * encoding the state (which for a large document costs as much as a tenth of opening it).
   */
  bytes: number;
}

/**
 * `content` canonical, as JSON text: what a compaction compares the derived content with. Null
 * when the schema cannot read it: any derived content differs, and replaces it.
 */
export function canonicalText(content: DocumentContent): string | null {
  try {
    return JSON.stringify(canonicalContent(content));
  } catch {
    return null;
  }
}

/**
 * Yjs state in PostgreSQL (`document_yjs`, `document_yjs_updates`): the snapshot, the updates
 * appended since, and the derived `documents.content` written with each snapshot (through
 * documents/documentRows.ts, the table's owner); bytes go through db/bytea.ts.
 */
export class YjsStore {
  private readonly bytea: Bytea;

  constructor(private readonly db: Database) {
    this.bytea = byteaOf(db);
  }

  /**
   * The live document `id` as Yjs, or null when there is none (missing, or in the trash unless
   * `trashed`: the server folds in the log of a trashed document too, so that the trash and its
   * exports hold every acknowledged edit; sockets never open one). A
   * document with JSON only is converted here, the server being the only one that converts, under
   * a lock on its row so that two instances opening it at once convert it once; the state is
   * stored before anyone sees it, and its text recorded as the owner's (who wrote what,
   * server/versions/authorship.ts). With `into`, the state is applied to that (empty) Y.Doc, which
   * is the one returned.
   */
  async load(
    id: string,
    options: { trashed?: boolean; into?: Y.Doc } = {},
  ): Promise<LoadedState | null> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ content: DocumentContent; owner_id: string }>(
        `SELECT content, owner_id::text AS owner_id FROM documents
          WHERE id = $1 AND (deleted_at IS NULL OR $2) FOR UPDATE`,
        [id, options.trashed === true],
      );
      const row = rows[0];
      if (!row) return null;
      // Into the caller's Y.Doc when it has one: Hocuspocus copies a Y.Doc returned to it into
      // its own, which for a large document costs as much again as this.
      const doc = options.into ?? new Y.Doc();
      doc.getXmlFragment(CONTENT_FIELD);
      let snapshot = await this.readSnapshot(tx, id);
      if (snapshot) {
        Y.applyUpdate(doc, snapshot);
      } else {
        // Converted straight into it, not into a copy applied to it again.
        snapshot = Y.encodeStateAsUpdate(yDocFromContent(row.content, doc));
        await tx.query(
          `INSERT INTO document_yjs (document_id, state) VALUES ($1, ${this.bytea.in('$2')})`,
          [id, this.bytea.param(snapshot)],
        );
        await markHasYjs(tx, id);
        await recordClients(tx, id, row.owner_id, [doc.clientID]);
      }
      const { rows: updates } = await tx.query<{ id: string; data: string | Uint8Array }>(
        `SELECT id::text AS id, ${this.bytea.out('data')} FROM document_yjs_updates
          WHERE document_id = $1 ORDER BY id`,
        [id],
      );
      // One transaction for all of them: one update event, not thousands.
      let bytes = snapshot.byteLength;
      Y.transact(doc, () => {
        for (const update of updates) {
          const data = this.bytea.read(update.data);
          bytes += data.byteLength;
          Y.applyUpdate(doc, data);
        }
      });
      return {
        doc,
        snapshot,
        updateIds: updates.map((update) => update.id),
        content: row.content,
        bytes,
      };
    });
  }

  /**
   * Stores `state` as the snapshot of the document `id` just created in the same transaction
   * `tx`: a document made in a tab arrives with its Yjs state, and nobody could have converted it
   * before the row existed. The clients that wrote the state are recorded as its creator's, `by`.
   */
  async insertNew(tx: Queryable, id: string, state: Uint8Array, by: string): Promise<void> {
    await tx.query(
      `INSERT INTO document_yjs (document_id, state) VALUES ($1, ${this.bytea.in('$2')})`,
      [id, this.bytea.param(state)],
    );
    await markHasYjs(tx, id);
    await recordClients(tx, id, by, [...Y.parseUpdateMeta(state).to.keys()]);
  }

  /** Appends one accepted update; resolves once it is committed (the client is told after). */
  async append(id: string, update: Uint8Array): Promise<string> {
    return (await this.appendAll([{ documentId: id, update }]))[0]!;
  }

  /**
   * Appends accepted updates, of any documents, in one statement and one commit; resolves with
   * their row ids, in the order given, once committed. The updates travel as one array of base64
   * text on both databases (an array parameter of bytes is not something both drivers send).
   */
  async appendAll(
    updates: readonly { documentId: string; update: Uint8Array }[],
  ): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO document_yjs_updates (document_id, data)
       SELECT u.document_id, decode(u.data, 'base64')
         FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS u(document_id, data, n)
        ORDER BY u.n
       RETURNING id::text AS id`,
      [
        `{${updates.map((one) => one.documentId).join(',')}}`,
        // Quoted, so that even an empty update is an element of the array.
        `{${updates.map((one) => `"${Buffer.from(one.update).toString('base64')}"`).join(',')}}`,
      ],
    );
    // The rows are inserted in the order of n, each taking the next id of the sequence as it goes
    // in, so the ids in ascending order are the updates' in the order given (RETURNING itself
    // promises no order).
    return rows
      .map((row) => BigInt(row.id))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map(String);
  }

  /**
   * Writes `state` as the snapshot, deletes the update rows it holds (`updateIds`, only rows this
   * instance read or wrote and applied), and, when `content` differs from what is stored, writes
   * it as `documents.content` with the version one up. Should the snapshot row no longer be
   * `previous` (another instance behind Redis compacted in between), the two are merged, so
   * nothing either instance had is dropped. Returns the snapshot written and the new version
   * when the content changed.
   */
  async compact(
    id: string,
    change: {
      state: Uint8Array;
      previous: Uint8Array;
      updateIds: readonly string[];
      content: DocumentContent | null;
    },
  ): Promise<{ snapshot: Uint8Array; version: number | null }> {
    return this.db.transaction(async (tx) => {
      const stored = await this.readSnapshot(tx, id, true);
      if (!stored) return { snapshot: change.state, version: null }; // deleted for good meanwhile
      const snapshot = Buffer.from(stored).equals(change.previous)
        ? change.state
        : Y.mergeUpdates([stored, change.state]);
      await tx.query(
        `UPDATE document_yjs SET state = ${this.bytea.in('$2')}, updated_at = now() WHERE document_id = $1`,
        [id, this.bytea.param(snapshot)],
      );
      if (change.updateIds.length > 0) {
        await tx.query(
          'DELETE FROM document_yjs_updates WHERE document_id = $1 AND id = ANY($2::bigint[])',
          [id, `{${change.updateIds.join(',')}}`],
        );
      }
      const version = change.content ? await replaceContent(tx, id, change.content) : null;
      return { snapshot, version };
    });
  }

  private async readSnapshot(tx: Queryable, id: string, lock = false): Promise<Uint8Array | null> {
    const { rows } = await tx.query<{ state: string | Uint8Array }>(
      `SELECT ${this.bytea.out('state')} FROM document_yjs WHERE document_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? this.bytea.read(rows[0].state) : null;
  }
}
