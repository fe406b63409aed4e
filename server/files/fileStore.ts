import type { UploadType } from '../../common/api/files.ts';
import type { Queryable } from '../db/database.ts';
import { readableIds } from '../documents/access.ts';
import type { ImageSize } from './reencode.ts';

/** A file that is ready to be served. */
export interface StoredFile {
  id: string;
  ownerId: string;
  name: string;
  type: UploadType;
  bytes: number;
  width: number;
  height: number;
  sha256: string;
}

interface FileRow {
  id: string;
  owner_id: string;
  name: string;
  type: UploadType;
  bytes: string | number | bigint;
  width: number;
  height: number;
  sha256: string;
}

/** The `files` table: which files exist, whose they are, and whether their bytes are all stored. */
export class FileStore {
  constructor(private readonly db: Queryable) {}

  /** A new pending file of `ownerId`; its bytes go to storage under the returned id. */
  async createPending(ownerId: string, name: string, type: UploadType): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      'INSERT INTO files (owner_id, name, type) VALUES ($1, $2, $3) RETURNING id',
      [ownerId, name, type],
    );
    return rows[0]!.id;
  }

  /** Marks a pending file ready once every byte is stored; only then can anyone read it. */
  async markReady(
    id: string,
    stored: ImageSize & { bytes: number; sha256: string },
  ): Promise<void> {
    await this.db.query(
      `UPDATE files SET status = 'ready', bytes = $2, width = $3, height = $4, sha256 = $5
        WHERE id = $1 AND status = 'pending'`,
      [id, stored.bytes, stored.width, stored.height, stored.sha256],
    );
  }

  /** Removes the row (a failed upload's, or a swept file's); the bytes go first, by the caller. */
  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM files WHERE id = $1', [id]);
  }

  /**
   * The file if `userId` may read it, else null; the one check every way of reading a file goes
   * through. Its uploader may, and whoever may read a document that references it (`/files/<id>`
   * in its content; live, or in the trash for the document's owner), as decided by
   * server/documents/access.ts. Only a document the uploader may edit counts, where the uploader
   * could have put the file: otherwise knowing a file's id and writing it into a document of
   * one's own would be enough to read it.
   */
  async canReadFile(userId: string, fileId: string): Promise<StoredFile | null> {
    const { rows } = await this.db.query<FileRow>(
      `SELECT f.id, f.owner_id, f.name, f.type, f.bytes, f.width, f.height, f.sha256 FROM files f
        WHERE f.id = $1 AND f.status = 'ready'
          AND (f.owner_id = $2 OR EXISTS (
            SELECT 1 FROM documents d
             WHERE d.id IN (${readableIds('$2')})
               AND (d.deleted_at IS NULL OR d.owner_id = $2)
               AND d.id IN (${readableIds('f.owner_id', 'editor')})
               AND d.content::text ILIKE '%/files/' || f.id::text || '%'))`,
      [fileId, userId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      ownerId: row.owner_id,
      name: row.name,
      type: row.type,
      bytes: Number(row.bytes),
      width: row.width,
      height: row.height,
      sha256: row.sha256,
    };
  }
}
