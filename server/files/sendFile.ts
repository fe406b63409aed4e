import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import { parseRange } from './byteRange.ts';
import { inlineDisposition } from './fileName.ts';
import type { FileStorage } from './fileStorage.ts';
import type { StoredFile } from './fileStore.ts';

/**
 * The response serving `file`, once the caller decided it may be read: its bytes streamed from
 * storage, the `ETag` of its content (304 when the browser has it), and one byte range when asked
 * for (206, or 416 past its end). `cacheControl` is the caller's: what a browser may keep depends
 * on who could read the file.
 */
export async function sendFile(
  c: Context,
  storage: FileStorage,
  file: StoredFile,
  cacheControl: string,
): Promise<Response> {
  const etag = `"${file.sha256}"`;
  c.header('Content-Type', file.type);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Disposition', inlineDisposition(file.name));
  c.header('Cache-Control', cacheControl);
  c.header('ETag', etag);
  c.header('Accept-Ranges', 'bytes');
  if (c.req.header('If-None-Match')?.includes(etag)) return c.body(null, 304);
  // A range of an older copy would splice two versions; If-Range asks for the whole then.
  const ifRange = c.req.header('If-Range');
  const range =
    ifRange === undefined || ifRange === etag
      ? parseRange(c.req.header('Range'), file.bytes)
      : undefined;
  if (range === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${file.bytes}`);
    return c.body(null, 416);
  }
  const stream = await storage.get(file.id, range);
  const body = Readable.toWeb(stream) as WebReadableStream<Uint8Array> as ReadableStream;
  if (!range) {
    c.header('Content-Length', String(file.bytes));
    return c.body(body, 200);
  }
  c.header('Content-Range', `bytes ${range.start}-${range.end}/${file.bytes}`);
  c.header('Content-Length', String(range.end - range.start + 1));
  return c.body(body, 206);
}
