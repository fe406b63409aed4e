import type { UploadType } from '../../common/api/files.ts';
import type { Queryable } from '../db/database.ts';
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
   * through. Today that is its uploader: documents are read only by their owners, and a file
   * belongs to whoever uploaded it into their document, so whoever may read a document that
   * references it is its uploader (a file not referenced yet is readable by its uploader alone).
   * Sharing extends this: a user who may read a document of the file's owner that references it
   * (`/files/<id>` in its content) may read the file. A reference from someone else's document
   * grants nothing, or knowing an id would be enough to read a file.
   */
  async canReadFile(userId: string, fileId: string): Promise<StoredFile | null> {
    const { rows } = await this.db.query<FileRow>(
      `SELECT id, owner_id, name, type, bytes, width, height, sha256 FROM files
        WHERE id = $1 AND status = 'ready' AND owner_id = $2`,
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
