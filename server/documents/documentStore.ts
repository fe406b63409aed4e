import type {
  DocumentMeta,
  DocumentRecord,
  DocumentSummary,
  SaveResult,
} from '../../common/api/documents.ts';
import type { Queryable } from '../db/database.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { documentRole, readableIds, roleOfRank, roleRank } from './access.ts';
import { documentNode, plainTextOf, type ValidContent } from './validateContent.ts';

/** How many rows the sidebar gets at most; search finds the rest. An imported vault of a thousand notes fits. */
const LIST_LIMIT = 2000;
/** Documents indexed per pass, so one pass never holds the database long. */
const INDEX_BATCH = 20;
/** How long a document goes unsaved before the background sweep indexes it. */
const QUIET_SECONDS = 30;
/** The search vector of a title and a text, the title weighing more. */
export const SEARCH_VECTOR = (title: string, text: string) =>
  `setweight(to_tsvector('simple', ${title}), 'A') || setweight(to_tsvector('simple', ${text}), 'B')`;
/** Characters of text shown under a title in the list. */
const EXCERPT_CHARS = 160;

interface SummaryRow {
  id: string;
  title: string;
  folder: string;
  excerpt: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** The reader's role and the owner's name and address, beside a document read for someone. */
interface ReaderRow {
  rank: number | null;
  owner_name: string;
  owner_email: string;
}

type MetaRow = Omit<SummaryRow, 'excerpt'>;

interface DocumentRow extends MetaRow {
  content: DocumentRecord['content'];
}

const SUMMARY_COLUMNS = `d.id, d.title, d.folder, left(regexp_replace(d.plain_text, '\\s+', ' ', 'g'), ${EXCERPT_CHARS}) AS excerpt,
  d.version, d.created_at, d.updated_at, d.deleted_at`;
const META_COLUMNS = 'id, title, folder, version, created_at, updated_at, deleted_at';
const DOCUMENT_COLUMNS =
  'd.id, d.title, d.folder, d.version, d.created_at, d.updated_at, d.deleted_at, d.content';
/** {@link ReaderRow}'s columns for the reader `$1`, over `documents d` joined with its owner `u`. */
const READER_COLUMNS = `${roleRank('d.id', '$1')} AS rank,
  coalesce(u.name, '') AS owner_name, coalesce(u.email, '') AS owner_email`;
const WITH_OWNER = 'documents d JOIN users u ON u.id = d.owner_id';

/** The reader's role and whose the document is, said only when the reader is not its owner. */
function readerFields(row: ReaderRow): Pick<DocumentSummary, 'role' | 'owner'> {
  const role = roleOfRank(row.rank);
  if (role === null || role === 'owner') return {};
  return { role, owner: { name: row.owner_name, email: row.owner_email } };
}

function toSummary(row: SummaryRow & ReaderRow): DocumentSummary {
  return {
    id: row.id,
    title: row.title,
    folder: row.folder,
    excerpt: row.excerpt.trim(),
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
    ...readerFields(row),
  };
}

function toMeta(row: MetaRow): DocumentMeta {
  return {
    id: row.id,
    title: row.title,
    folder: row.folder,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}

function toDocument(row: DocumentRow & ReaderRow): DocumentRecord {
  return { ...toMeta(row), ...readerFields(row), content: row.content };
}

/** What {@link DocumentStore.createWithId} did. */
export type CreateOutcome =
  /** `created` now, or `existing`: this owner already had a document under the requested id. */
  | { outcome: 'created' | 'existing'; document: DocumentMeta }
  /** Another owner's document has the requested id. */
  | { outcome: 'taken' };

/**
 * A search as typed becomes a prefix match on every word (`inkw` finds "Inkwell"). Only letters
 * and digits reach `to_tsquery`, so nothing typed can break its syntax.
 */
export function searchQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, 20)
    .map((word) => `${word}:*`)
    .join(' & ');
}

/**
 * Documents as one reader sees them: who may read, write or delete which is decided by
 * server/documents/access.ts (documentRole, readableIds), never here; anything the reader may
 * not see is simply not there. Creating makes the reader the owner.
 */
export class DocumentStore {
  constructor(private readonly db: Queryable) {}

  /**
   * The reader's live documents, those shared with them (`shared`), or their trash (the trash is
   * the owner's alone), most recently changed first; a search looks through their own and the
   * shared ones. Rows of others' documents carry the reader's role and their owner.
   */
  async list(
    readerId: string,
    options: { trash: boolean; search?: string; shared?: boolean },
  ): Promise<DocumentSummary[]> {
    const query = options.search ? searchQuery(options.search) : null;
    if (options.search && !query) return [];
    // Saves leave indexing for later; a list or a search sees the latest words of what it shows.
    for (let pass = 0; pass < 5 && (await this.index(readerId)) === INDEX_BATCH; pass += 1);
    // Ownership, not access, says which list a document is in: one's own, or shared with one.
    const where = options.trash
      ? 'd.owner_id = $1 AND d.deleted_at IS NOT NULL'
      : query
        ? `d.deleted_at IS NULL AND d.id IN (${readableIds('$1')})`
        : options.shared
          ? `d.deleted_at IS NULL AND d.owner_id <> $1 AND d.id IN (${readableIds('$1')})`
          : 'd.owner_id = $1 AND d.deleted_at IS NULL';
    const { rows } = query
      ? await this.db.query<SummaryRow & ReaderRow>(
          `SELECT ${SUMMARY_COLUMNS}, ${READER_COLUMNS} FROM ${WITH_OWNER}
            WHERE ${where} AND d.search @@ to_tsquery('simple', $2)
            ORDER BY ts_rank(d.search, to_tsquery('simple', $2)) DESC, d.updated_at DESC
            LIMIT ${LIST_LIMIT}`,
          [readerId, query],
        )
      : await this.db.query<SummaryRow & ReaderRow>(
          `SELECT ${SUMMARY_COLUMNS}, ${READER_COLUMNS} FROM ${WITH_OWNER} WHERE ${where}
            ORDER BY ${options.trash ? 'd.deleted_at' : 'd.updated_at'} DESC LIMIT ${LIST_LIMIT}`,
          [readerId],
        );
    return rows.map(toSummary);
  }

  /**
   * A document the reader may read (any role; in the trash, only its owner), with the reader's
   * role and its owner when it is someone else's; null otherwise.
   */
  async get(readerId: string, id: string): Promise<DocumentRecord | null> {
    if ((await documentRole(this.db, readerId, id, { trash: true })) === null) return null;
    const { rows } = await this.db.query<DocumentRow & ReaderRow>(
      `SELECT ${DOCUMENT_COLUMNS}, ${READER_COLUMNS} FROM ${WITH_OWNER} WHERE d.id = $2`,
      [readerId, id],
    );
    return rows[0] ? toDocument(rows[0]) : null;
  }

  /** A new document at version 1, under an id the database picks, in `folder` ('' the top). */
  async create(
    ownerId: string,
    title: string,
    content: ValidContent,
    folder = '',
  ): Promise<DocumentMeta> {
    const { rows } = await this.db.query<MetaRow>(
      `INSERT INTO documents (owner_id, title, content, plain_text, search, indexed_version, folder)
       VALUES ($1, $2, $3::jsonb, $4, ${SEARCH_VECTOR('$2', '$4')}, 1, $5)
       RETURNING ${META_COLUMNS}`,
      [ownerId, title, content.jsonText, plainTextOf(documentNode(content)), folder],
    );
    return toMeta(rows[0]!);
  }

  /**
   * A new document at version 1 under an id the client chose, in `folder`. Creating it again is harmless: the
   * owner's document already there is returned unchanged (a retried request).
   */
  async createWithId(
    ownerId: string,
    id: string,
    title: string,
    content: ValidContent,
    folder = '',
  ): Promise<CreateOutcome> {
    const { rows } = await this.db.query<MetaRow>(
      `INSERT INTO documents (id, owner_id, title, content, plain_text, search, indexed_version, folder)
         VALUES ($1, $2, $3, $4::jsonb, $5, ${SEARCH_VECTOR('$3', '$5')}, 1, $6)
         ON CONFLICT (id) DO NOTHING
         RETURNING ${META_COLUMNS}`,
      [id, ownerId, title, content.jsonText, plainTextOf(documentNode(content)), folder],
    );
    if (rows[0]) return { outcome: 'created', document: toMeta(rows[0]) };
    // Only the writer's own document makes the create a repeat; anyone else's id is taken,
    // whatever role the writer holds in it.
    const { rows: existing } = await this.db.query<MetaRow>(
      `SELECT ${META_COLUMNS} FROM documents WHERE id = $1 AND owner_id = $2`,
      [id, ownerId],
    );
    return existing[0]
      ? { outcome: 'existing', document: toMeta(existing[0]) }
      : { outcome: 'taken' };
  }

  /**
   * A save: applied only if the stored version is still `baseVersion`, and then the version goes
   * up by one. Returns `stale` with the stored copy when someone saved in between. The text and
   * search index are left for `index`: re-indexing on every save cost three quarters of the
   * route's throughput. With `unlessLive`, content is not written to a document that has Yjs
   * state (server/collab/): the title and version are, and the outcome `live` tells the caller to
   * apply the content as a Yjs change. Editors and the owner may save; for anyone else the
   * document is `missing`.
   */
  async update(
    writerId: string,
    id: string,
    change: {
      baseVersion: number;
      title?: string;
      content?: ValidContent;
      unlessLive?: boolean;
    },
  ): Promise<
    | { outcome: 'saved' | 'live'; result: SaveResult }
    | { outcome: 'stale'; current: DocumentRecord }
    | { outcome: 'missing' }
  > {
    const { rows } = await this.db.query<{
      id: string;
      version: number;
      updated_at: Date;
      has_yjs: boolean;
    }>(
      `UPDATE documents
          SET title = COALESCE($4, title),
              content = CASE WHEN has_yjs AND $6 THEN content ELSE COALESCE($5::jsonb, content) END,
              version = version + 1,
              updated_at = now()
        WHERE id = $1 AND id IN (${readableIds('$2', 'editor')}) AND version = $3
          AND deleted_at IS NULL
        RETURNING id, version, updated_at, has_yjs`,
      [
        id,
        writerId,
        change.baseVersion,
        change.title ?? null,
        change.content?.jsonText ?? null,
        change.unlessLive ?? false,
      ],
    );
    const saved = rows[0];
    if (saved) {
      return {
        outcome: saved.has_yjs && change.unlessLive && change.content ? 'live' : 'saved',
        result: { id: saved.id, version: saved.version, updatedAt: saved.updated_at.toISOString() },
      };
    }
    // A viewer learns nothing from a refused save, not even the current version.
    const role = await documentRole(this.db, writerId, id);
    if (role === null || role === 'viewer') return { outcome: 'missing' };
    const current = await this.get(writerId, id);
    if (!current || current.deletedAt) return { outcome: 'missing' };
    return { outcome: 'stale', current };
  }

  /**
   * Brings the text and search index of saved-but-not-indexed documents up to date; at most one
   * batch. Returns how many it indexed. With a reader: every document they may read, before a
   * list or a search.
   * Without (the background sweep): documents left alone for {@link QUIET_SECONDS}, as one still
   * being written would be indexed again at every sweep for words about to change (~25 ms each
   * for 100 KB on PGlite, on the server's only thread); a list or a search still sees its latest.
   */
  async index(readerId?: string): Promise<number> {
    const { rows } = await this.db.query<{
      id: string;
      content: DocumentRecord['content'];
      version: number;
    }>(
      `SELECT id, content, version FROM documents
        WHERE indexed_version < version
          AND ${readerId ? `id IN (${readableIds('$1')})` : `updated_at < now() - interval '${QUIET_SECONDS} seconds'`}
        LIMIT ${INDEX_BATCH}`,
      readerId ? [readerId] : [],
    );
    for (const row of rows) {
      let text = '';
      try {
        text = plainTextOf(inkwellSchema().nodeFromJSON(row.content));
      } catch {
        // Stored content passed validation when saved; should the schema ever change under it,
        // the document stays listed, only unsearchable by its text.
      }
      await this.db.query(
        `UPDATE documents
            SET plain_text = $2, search = ${SEARCH_VECTOR('title', '$2')}, indexed_version = $3
          WHERE id = $1 AND indexed_version < $3`,
        [row.id, text, row.version],
      );
    }
    return rows.length;
  }

  /** Moves a live document of the owner's to the trash; false for anyone else or none. */
  async trash(ownerId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE documents SET deleted_at = now()
        WHERE id = $1 AND id IN (${readableIds('$2', 'owner')}) AND deleted_at IS NULL`,
      [id, ownerId],
    );
    return rowCount > 0;
  }

  /** Brings the owner's document back from the trash; null if it is not in their trash. */
  async restore(ownerId: string, id: string): Promise<SaveResult | null> {
    const { rows } = await this.db.query<{ id: string; version: number; updated_at: Date }>(
      `UPDATE documents SET deleted_at = NULL
        WHERE id = $1 AND id IN (${readableIds('$2', 'owner')}) AND deleted_at IS NOT NULL
        RETURNING id, version, updated_at`,
      [id, ownerId],
    );
    const row = rows[0];
    return row
      ? { id: row.id, version: row.version, updatedAt: row.updated_at.toISOString() }
      : null;
  }

  /** Deletes the owner's document in the trash for good; `live` if it is not in the trash. */
  async purge(ownerId: string, id: string): Promise<'deleted' | 'live' | 'missing'> {
    const { rowCount } = await this.db.query(
      `DELETE FROM documents
        WHERE id = $1 AND id IN (${readableIds('$2', 'owner')}) AND deleted_at IS NOT NULL`,
      [id, ownerId],
    );
    if (rowCount > 0) return 'deleted';
    return (await documentRole(this.db, ownerId, id)) === 'owner' ? 'live' : 'missing';
  }
}
