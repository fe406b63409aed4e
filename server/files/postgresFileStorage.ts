import { Readable } from 'node:stream';
import type { Database } from '../db/database.ts';
import type { ByteRange, FileStorage } from './fileStorage.ts';

/**
 * Size of one row of `file_chunks`: big enough that a 2 MB photo is a handful of inserts, small
 * enough that neither side holds more than this of a file at once.
 */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Files kept in the database itself (the default, PGlite included): each file is rows of
 * `file_chunks` keyed by their offset. Every chunk is its own statement rather than one
 * transaction, which on PGlite would hold the whole database for the upload; the `files` row's
 * status is what makes a file visible, and it turns ready only after the last chunk.
 */
export class PostgresFileStorage implements FileStorage {
  readonly kind = 'postgres';

  constructor(private readonly db: Database) {}

  async put(key: string, body: Readable): Promise<number> {
    let written = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.db.query('INSERT INTO file_chunks (file_id, start, data) VALUES ($1, $2, $3)', [
        key,
        written,
        data,
      ]);
      written += data.length;
    };
    for await (const chunk of body as AsyncIterable<Buffer>) {
      let rest = chunk;
      while (rest.length > 0) {
        const room = CHUNK_BYTES - pendingBytes;
        pending.push(rest.subarray(0, room));
        pendingBytes += Math.min(room, rest.length);
        rest = rest.subarray(room);
        if (pendingBytes === CHUNK_BYTES) await flush();
      }
    }
    await flush();
    return written;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const first = await this.db.query<{ start: string | number | bigint; data: Uint8Array }>(
      'SELECT start, data FROM file_chunks WHERE file_id = $1 AND start <= $2 ORDER BY start DESC LIMIT 1',
      [key, range?.start ?? 0],
    );
    const head = first.rows[0];
    if (!head) throw new Error(`no stored file ${key}`);
    const db = this.db;
    const from = range?.start ?? 0;
    const to = range ? range.end + 1 : Infinity;
    // One chunk per query, fetched as the response drains: a slow reader holds one chunk.
    async function* chunks(): AsyncGenerator<Buffer> {
      let row: { start: string | number | bigint; data: Uint8Array } | undefined = head;
      while (row) {
        const start = Number(row.start);
        const data = Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
        const end = start + data.length;
        const piece = data.subarray(Math.max(0, from - start), Math.min(data.length, to - start));
        if (piece.length > 0) yield piece;
        if (end >= to) return;
        const next = await db.query<{ start: string | number | bigint; data: Uint8Array }>(
          'SELECT start, data FROM file_chunks WHERE file_id = $1 AND start = $2',
          [key, end],
        );
        row = next.rows[0];
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    await this.db.query('DELETE FROM file_chunks WHERE file_id = $1', [key]);
  }

  close(): void {}
}
