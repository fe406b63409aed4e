import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (as in HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files' bytes live: the database (server/files/postgresFileStorage.ts) or an
 * S3-compatible bucket (server/files/s3FileStorage.ts). Both stream, so memory does not grow with
 * a file's size. The `files` table says which files exist; a key here is a file's id.
 */
export interface FileStorage {
  /** `postgres` (also PGlite) or `s3`, for logs and tests. */
  readonly kind: 'postgres' | 's3';
  /** Writes `body` under `key`, replacing nothing (keys are fresh ids); resolves with its size. */
  put(key: string, body: Readable): Promise<number>;
  /** The bytes under `key`, or the `range` of them; rejects when there is no such key. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes `key`; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Lets go of connections of its own (the S3 client's); the database is closed by its owner. */
  close(): void;
}
