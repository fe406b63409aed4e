import { createHash } from 'node:crypto';
import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import type { VersionKind, VersionSummary } from '../../common/api/versions.ts';
import { byteaOf, type Bytea } from '../db/bytea.ts';
import type { Database, Queryable } from '../db/database.ts';
import { contentOfYDoc } from '../collab/yjsContent.ts';
import { changeOf } from './versionChange.ts';

/**
 * A document's versions in PostgreSQL (`document_versions`, docs/PRODUCT.md "Version history"):
 * each the Yjs state at one moment, a keyframe whole or a diff against its keyframe; and the
 * server's record of which account each Yjs client wrote for (`document_yjs_clients`), which
 * names a version's authors.
 */

/** A diff grows past this share of the whole state: the next version is a keyframe. */
const KEYFRAME_SHARE = 0.5;
/** Versions on one keyframe at most, so that none is rebuilt from a diff of everything since. */
const MAX_ON_KEYFRAME = 50;

/** What {@link VersionStore.keep} is asked to keep. */
export interface KeepRequest {
  kind: VersionKind;
  name?: string | null;
  /** The person keeping it by hand; absent for the server's own. */
  keptBy?: string | null;
  /** Accounts whose updates were accepted since the version before (the keeper knows them). */
  writers?: readonly string[];
}

/** A page of versions, newest first. */
export interface VersionPage {
  versions: VersionSummary[];
  next: string | null;
}

interface SummaryRow {
  id: string;
  created_at: Date;
  kind: VersionKind;
  name: string | null;
  kept_by: string | null;
  kept_by_name: string | null;
  authors: { id: string; name: string }[] | null;
  added: number;
  removed: number;
}

/** The columns of a summary, from `document_versions v`, with the people's names. */
const SUMMARY = `
  v.id::text AS id, v.created_at, v.kind, v.name, v.kept_by::text AS kept_by,
  (SELECT coalesce(nullif(k.name, ''), k.email, 'Someone') FROM users k WHERE k.id = v.kept_by)
    AS kept_by_name,
  (SELECT json_agg(json_build_object('id', a.id::text,
          'name', coalesce(nullif(a.name, ''), a.email, 'Someone')) ORDER BY a.name)
     FROM users a WHERE a.id = ANY (v.authors)) AS authors,
  v.added, v.removed`;

function summaryOf(row: SummaryRow): VersionSummary {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    kind: row.kind,
    name: row.name,
    keptBy: row.kept_by ? { id: row.kept_by, name: row.kept_by_name ?? 'Someone' } : null,
    authors: row.authors ?? [],
    added: row.added,
    removed: row.removed,
  };
}

/** The `/files/<id>` ids `content` names: what the files sweep must keep for the version. */
export function fileIdsOf(content: DocumentContent): string[] {
  const ids = JSON.stringify(content).matchAll(
    /\/files\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/g,
  );
  return [...new Set([...ids].map((match) => match[1]!.toLowerCase()))];
}

const hashOf = (content: DocumentContent) =>
  createHash('sha256').update(JSON.stringify(content)).digest('hex');

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** Who wrote a document, as {@link VersionStore.writersOf} reads it. */
export interface Writers {
  /** The account behind each Yjs client id. */
  userOfClient: Map<number, string>;
  /** Each of those accounts' names. */
  names: Map<string, string>;
}

/**
 * Records that Yjs clients `clientIds` of `documentId` wrote for `userId`, unless recorded
 * already (for whoever was first), on `db` or inside a transaction that writes their items.
 */
export async function recordClients(
  db: Queryable,
  documentId: string,
  userId: string,
  clientIds: readonly number[],
): Promise<void> {
  if (clientIds.length === 0) return;
  await db.query(
    `INSERT INTO document_yjs_clients (document_id, client_id, user_id)
     SELECT $1, unnest($2::bigint[]), $3 ON CONFLICT DO NOTHING`,
    [documentId, `{${clientIds.join(',')}}`, userId],
  );
}

export class VersionStore {
  private readonly bytea: Bytea;

  constructor(private readonly db: Database) {
    this.bytea = byteaOf(db);
  }

  /**
   * Keeps `doc` as it is now as a version of `documentId`. When its content is what the newest
   * version holds, nothing new is kept and the newest is answered instead (named first when a
   * name was given and it had none); a named version over a named one is kept all the same.
   * Null when the document is gone.
   */
  async keep(documentId: string, doc: Y.Doc, request: KeepRequest): Promise<VersionSummary | null> {
    const content = contentOfYDoc(doc);
    const hash = hashOf(content);
    const state = Y.encodeStateAsUpdate(doc);
    const stateVector = Y.encodeStateVector(doc);
    // The live document takes writers' updates while the transaction below awaits; every diff
    // must be of the moment above. Cut from the document while it is still there (cheap), else
    // from `state` (Y.diffUpdate reads all of it).
    let moved = false;
    const move = () => (moved = true);
    doc.on('update', move);
    const diffSince = (vector: Uint8Array) =>
      moved ? Y.diffUpdate(state, vector) : Y.encodeStateAsUpdate(doc, vector);
    const kept = this.db.transaction(async (tx) => {
      // One keeper at a time per document: the newest and the keyframe stay what was read.
      const { rows: documents } = await tx.query(
        'SELECT 1 FROM documents WHERE id = $1 FOR UPDATE',
        [documentId],
      );
      if (documents.length === 0) return null;
      const newest = await this.newest(tx, documentId);
      const name = request.name ?? null;
      if (newest && newest.content_hash === hash && !(name && newest.kind === 'named')) {
        if (name) {
          await tx.query(
            `UPDATE document_versions SET kind = 'named', name = $2, kept_by = $3 WHERE id = $1`,
            [newest.id, name, request.keptBy ?? null],
          );
        }
        return newest.id;
      }
      const since = newest
        ? {
            stateVector: this.bytea.read(newest.state_vector),
            deletedTotal: Number(newest.deleted_total),
          }
        : null;
      const change = changeOf(since ? diffSince(since.stateVector) : state, since);
      const recorded = await this.authorsOf(tx, documentId, change.clients);
      const authors = [...new Set([...recorded, ...(request.writers ?? [])])];
      const stored = await this.storedForm(tx, documentId, state, diffSince);
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO document_versions
           (document_id, kind, name, kept_by, authors, added, removed, content_hash, base_id,
            state, state_vector, file_ids, deleted_total)
         VALUES ($1, $2, $3, $4, $5::uuid[], $6, $7, $8, $9, ${this.bytea.in('$10')},
                 ${this.bytea.in('$11')}, $12::uuid[], $13)
         RETURNING id::text AS id`,
        [
          documentId,
          request.kind,
          name,
          request.keptBy ?? null,
          uuidArray(authors),
          change.added,
          change.removed,
          hash,
          stored.baseId,
          this.bytea.param(stored.state),
          this.bytea.param(stateVector),
          uuidArray(fileIdsOf(content)),
          change.deletedTotal,
        ],
      );
      return rows[0]!.id;
    });
    const id = await kept.finally(() => doc.off('update', move));
    return id === null ? null : this.summary(documentId, id);
  }

  /** A page of `documentId`'s versions, newest first, before version `before` when given. */
  async list(documentId: string, page: { before?: string; limit: number }): Promise<VersionPage> {
    const { rows } = await this.db.query<SummaryRow>(
      `SELECT ${SUMMARY} FROM document_versions v
        WHERE v.document_id = $1 AND ($2::bigint IS NULL OR v.id < $2::bigint)
        ORDER BY v.id DESC LIMIT $3`,
      [documentId, page.before ?? null, page.limit + 1],
    );
    const versions = rows.slice(0, page.limit).map(summaryOf);
    return { versions, next: rows.length > page.limit ? versions.at(-1)!.id : null };
  }

  /** One version's summary, or null when `documentId` has no version `versionId`. */
  async summary(documentId: string, versionId: string): Promise<VersionSummary | null> {
    const { rows } = await this.db.query<SummaryRow>(
      `SELECT ${SUMMARY} FROM document_versions v WHERE v.document_id = $1 AND v.id = $2::bigint`,
      [documentId, versionId],
    );
    return rows[0] ? summaryOf(rows[0]) : null;
  }

  /** The Y.Doc of version `versionId` of `documentId`, rebuilt from its keyframe; null if none. */
  async state(documentId: string, versionId: string): Promise<Y.Doc | null> {
    const { rows } = await this.db.query<{
      state: string | Uint8Array;
      base: string | Uint8Array | null;
    }>(
      `SELECT ${this.bytea.out('v.state', 'state')},
              (SELECT ${this.bytea.out('k.state', 'base')} FROM document_versions k WHERE k.id = v.base_id)
                AS base
         FROM document_versions v WHERE v.document_id = $1 AND v.id = $2::bigint`,
      [documentId, versionId],
    );
    const row = rows[0];
    if (!row) return null;
    const doc = new Y.Doc();
    Y.transact(doc, () => {
      if (row.base !== null) Y.applyUpdate(doc, this.bytea.read(row.base));
      Y.applyUpdate(doc, this.bytea.read(row.state));
    });
    return doc;
  }

  /** Version `versionId` with its content, or null when `documentId` has no such version. */
  async read(
    documentId: string,
    versionId: string,
  ): Promise<{ version: VersionSummary; content: DocumentContent } | null> {
    const [version, doc] = await Promise.all([
      this.summary(documentId, versionId),
      this.state(documentId, versionId),
    ]);
    if (!version || !doc) return null;
    const content = contentOfYDoc(doc);
    doc.destroy();
    return { version, content };
  }

  /** Names version `versionId` (kept forever from then on); null when there is no such version. */
  async rename(
    documentId: string,
    versionId: string,
    name: string,
    by: string,
  ): Promise<VersionSummary | null> {
    const { rowCount } = await this.db.query(
      `UPDATE document_versions SET kind = 'named', name = $3, kept_by = coalesce(kept_by, $4)
        WHERE document_id = $1 AND id = $2::bigint`,
      [documentId, versionId, name, by],
    );
    return rowCount === 0 ? null : this.summary(documentId, versionId);
  }

  /**
   * Records that Yjs clients `clientIds` of `documentId` wrote for `userId`, unless recorded
   * already (for whoever was first).
   */
  async recordClients(documentId: string, userId: string, clientIds: readonly number[]) {
    await recordClients(this.db, documentId, userId, clientIds);
  }

  /**
   * What the server recorded of who wrote `documentId`: the account of each Yjs client, and
   * each account's name as the summaries give it.
   */
  async writersOf(documentId: string): Promise<Writers> {
    const { rows } = await this.db.query<{ client_id: string; user_id: string; name: string }>(
      `SELECT c.client_id::text AS client_id, c.user_id::text AS user_id,
              coalesce(nullif(u.name, ''), u.email, 'Someone') AS name
         FROM document_yjs_clients c JOIN users u ON u.id = c.user_id
        WHERE c.document_id = $1`,
      [documentId],
    );
    return {
      userOfClient: new Map(rows.map((row) => [Number(row.client_id), row.user_id])),
      names: new Map(rows.map((row) => [row.user_id, row.name])),
    };
  }

  /**
   * Thins the automatic versions (docs/PRODUCT.md "Version history"): all of the last day, then
   * the newest of each hour for a week, then the newest of each day. Named and restore versions
   * stay, as does a keyframe other versions are diffs of. Resolves with how many went.
   */
  async thin(now = new Date()): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM document_versions v USING (
         SELECT id, row_number() OVER (
                  PARTITION BY document_id,
                    date_trunc(CASE WHEN created_at > $1::timestamptz - interval '7 days'
                                    THEN 'hour' ELSE 'day' END, created_at)
                  ORDER BY id DESC) AS rank
           FROM document_versions
          WHERE kind = 'auto' AND created_at < $1::timestamptz - interval '1 day') t
        WHERE v.id = t.id AND t.rank > 1
          AND NOT EXISTS (SELECT 1 FROM document_versions d WHERE d.base_id = v.id)`,
      [now],
    );
    return rowCount;
  }

  private async newest(tx: Queryable, documentId: string) {
    const { rows } = await tx.query<{
      id: string;
      kind: VersionKind;
      content_hash: string;
      state_vector: string | Uint8Array;
      deleted_total: string;
    }>(
      `SELECT id::text AS id, kind, content_hash, deleted_total::text AS deleted_total,
              ${this.bytea.out('state_vector')}
         FROM document_versions WHERE document_id = $1 ORDER BY id DESC LIMIT 1`,
      [documentId],
    );
    return rows[0] ?? null;
  }

  /** The accounts the server recorded for `clients` in `documentId`. */
  private async authorsOf(tx: Queryable, documentId: string, clients: readonly number[]) {
    if (clients.length === 0) return [];
    const { rows } = await tx.query<{ user_id: string }>(
      `SELECT DISTINCT user_id::text AS user_id FROM document_yjs_clients
        WHERE document_id = $1 AND client_id = ANY ($2::bigint[])`,
      [documentId, `{${clients.join(',')}}`],
    );
    return rows.map((row) => row.user_id);
  }

  /**
   * How the version is stored: a diff against the newest keyframe while that stays small and
   * the keyframe has room, else the whole state as a new keyframe.
   */
  private async storedForm(
    tx: Queryable,
    documentId: string,
    state: Uint8Array,
    diffSince: (stateVector: Uint8Array) => Uint8Array,
  ): Promise<{ baseId: string | null; state: Uint8Array }> {
    const { rows } = await tx.query<{
      id: string;
      state_vector: string | Uint8Array;
      dependents: string;
    }>(
      `SELECT k.id::text AS id, ${this.bytea.out('k.state_vector', 'state_vector')},
              (SELECT count(*) FROM document_versions d WHERE d.base_id = k.id)::text AS dependents
         FROM document_versions k
        WHERE k.document_id = $1 AND k.base_id IS NULL ORDER BY k.id DESC LIMIT 1`,
      [documentId],
    );
    const keyframe = rows[0];
    if (!keyframe || Number(keyframe.dependents) >= MAX_ON_KEYFRAME) return { baseId: null, state };
    const diff = diffSince(this.bytea.read(keyframe.state_vector));
    return diff.byteLength <= state.byteLength * KEYFRAME_SHARE
      ? { baseId: keyframe.id, state: diff }
      : { baseId: null, state };
  }
}
