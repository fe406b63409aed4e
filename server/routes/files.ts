import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Hono, type Context } from 'hono';
import { fileIdSchema, uploadFileQuerySchema, type UploadedFile } from '../../common/api/files.ts';
import { AppError, InvalidRequestError, NotFoundError } from '../errors.ts';
import { FileStore } from '../files/fileStore.ts';
import { sendFile } from '../files/sendFile.ts';
import { uploadFile } from '../files/uploadFile.ts';
import { UploadGate } from '../files/uploadGate.ts';
import { parseWith } from '../middleware/readJson.ts';
import { requestSession } from '../middleware/session.ts';
import type { AppEnv, Services } from '../services.ts';

/** A file's address never changes what it serves (ids are not reused), so browsers may keep it. */
const CACHE_CONTROL = 'private, max-age=31536000, immutable';

/**
 * Uploaded images: `POST /api/files` (behind `requireSession` and the CSRF check) and
 * `GET /files/:id`, outside `/api` so that an `<img src>` can load it with the session cookie.
 * Anyone who may not read a file, signed in or not, gets the same 404 as for a file that does not
 * exist: a 401 or 403 would tell them it does.
 */
export function fileRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const files = new FileStore(services.db);
  // One per process: what it counts is this process's memory.
  const gate = new UploadGate(services.db, services.config.files);

  app.post('/api/files', async (c) => {
    const { name } = parseWith(uploadFileQuerySchema, c.req.query());
    const length = c.req.header('Content-Length');
    try {
      const uploaded = await uploadFile(services.db, services.files, {
        ownerId: c.get('session').user.id,
        body: requestBody(c),
        declaredBytes: length === undefined ? undefined : Number(length),
        name,
        maxBytes: services.config.files.maxBytes,
        pixelLimits: services.config.files,
        gate,
      });
      return c.json<UploadedFile>(uploaded, 201);
    } catch (error) {
      // The rest of an oversized or refused body is never read: closing the connection after
      // the 413 or 429 is what stops the client from sending it.
      if (
        error instanceof AppError &&
        (error.code === 'payload_too_large' || error.code === 'rate_limited')
      ) {
        throw new AppError(error.code, error.message, {
          headers: { ...error.headers, Connection: 'close' },
        });
      }
      throw error;
    }
  });

  /**
   * The file if `userId` may read it. A miss looks again once the documents they have open here
   * are stored: an image the owner put into a shared document a moment ago is in its live state
   * only, and its readers' browsers ask for it at once.
   */
  const readable = async (userId: string, fileId: string) => {
    const file = await files.canReadFile(userId, fileId);
    if (file || !services.collab) return file;
    await services.collab.flushOpenedBy(userId);
    return files.canReadFile(userId, fileId);
  };

  app.get('/files/:id', async (c) => {
    const id = fileIdSchema.safeParse(c.req.param('id'));
    const session = await requestSession(c, services);
    const file = id.success && session ? await readable(session.user.id, id.data) : null;
    if (!file) throw NotFoundError('There is no such file.');
    return sendFile(c, services.files, file, CACHE_CONTROL);
  });

  return app;
}

/** The request body as a Node stream: the socket's own behind Node's server, else the Web body. */
function requestBody(c: Context<AppEnv>): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableEnded && incoming.readableFlowing === null) return incoming;
  const body = c.req.raw.body;
  if (!body) throw InvalidRequestError('The upload is empty.');
  return Readable.fromWeb(body as WebReadableStream<Uint8Array>);
}
