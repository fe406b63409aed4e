import { createHash, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import type { OutputInfo } from 'sharp';
import { fileUrl, type UploadedFile, type UploadType } from '../../common/api/files.ts';
import type { Database } from '../db/database.ts';
import {
  AppError,
  InvalidImageError,
  InvalidRequestError,
  PayloadTooLargeError,
  UnsupportedFileTypeError,
} from '../errors.ts';
import { formatBytes } from '../middleware/readJson.ts';
import { cleanFileName } from './fileName.ts';
import type { FileStorage } from './fileStorage.ts';
import { FileStore } from './fileStore.ts';
import { receiveToFile } from './receiveToFile.ts';
import { checkDimensions, reencode, sizeOf, type PixelLimits } from './reencode.ts';
import { sniffType } from './sniffType.ts';
import type { UploadGate } from './uploadGate.ts';

/** One upload as the route hands it over. */
export interface UploadRequest {
  ownerId: string;
  /** The request body. */
  body: Readable;
  /** `Content-Length`, when the client sent one. */
  declaredBytes: number | undefined;
  /** The name on the person's computer, as the client sent it. */
  name: string | undefined;
  /** `FILE_MAX_BYTES`. */
  maxBytes: number;
  /** `FILE_MAX_PIXELS` and `FILE_MAX_WHOLE_PIXELS`. */
  pixelLimits: PixelLimits;
  /** This process's gate: the uploader's rate and uploads under way, and the decodes at once. */
  gate: UploadGate;
}

/**
 * Takes one upload from the request to storage, once the gate admits it (429 otherwise, before
 * the body is read). The body goes to a temporary file, counted as it arrives (libvips reads a
 * file piecewise, where a stream given to sharp is gathered whole in memory); its type is sniffed
 * and its header checked before anything is decoded; then, at its turn among the decodes, the
 * re-encoded image streams to storage under a pending row, which turns ready only once every
 * byte is there. Whatever fails on the way leaves neither row nor bytes behind.
 */
export async function uploadFile(
  db: Database,
  storage: FileStorage,
  request: UploadRequest,
): Promise<UploadedFile> {
  const tooLarge = () =>
    PayloadTooLargeError(`The file is larger than ${formatBytes(request.maxBytes)}.`);
  if (request.declaredBytes !== undefined && request.declaredBytes > request.maxBytes) {
    throw tooLarge();
  }
  const end = await request.gate.admit(request.ownerId);
  const temp = join(tmpdir(), `inkwell-upload-${randomUUID()}`);
  try {
    const received = await receiveToFile(request.body, temp, request.maxBytes);
    if (received === 'too_large') throw tooLarge();
    if (received === 0) throw InvalidRequestError('The file is empty.');
    const type = await sniffType(temp);
    if (!type) throw UnsupportedFileTypeError();
    const maxInputPixels = await checkDimensions(temp, type, request.pixelLimits);
    const name = cleanFileName(request.name, type);
    const files = new FileStore(db);
    const id = await files.createPending(request.ownerId, name, type);
    try {
      const stored = await request.gate.decode(() =>
        store(storage, id, temp, type, maxInputPixels),
      );
      await files.markReady(id, stored);
      return { id, url: fileUrl(id), type, name, ...stored };
    } catch (error) {
      await storage.delete(id).catch(() => undefined);
      await files.remove(id).catch(() => undefined);
      throw error;
    }
  } finally {
    await rm(temp, { force: true });
    end();
  }
}

/** Re-encodes the image at `path` into storage under `id`, hashing it on the way. */
async function store(
  storage: FileStorage,
  id: string,
  path: string,
  type: UploadType,
  maxInputPixels: number,
) {
  const image = reencode(path, type, maxInputPixels);
  const hash = createHash('sha256');
  const hashed = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let info: OutputInfo | undefined;
  image.once('info', (reported: OutputInfo) => {
    info = reported;
  });
  // A decoding failure is the image's fault (422); a storage failure stays a 500.
  image.on('error', (error: Error) =>
    hashed.destroy(
      error instanceof AppError
        ? error
        : InvalidImageError('The image could not be read: it is damaged or incomplete.', error),
    ),
  );
  image.pipe(hashed);
  let bytes: number;
  try {
    bytes = await storage.put(id, hashed);
  } catch (error) {
    // A store that gave up leaves sharp with nobody reading its output.
    image.destroy();
    throw error;
  }
  if (!info) throw new Error('sharp reported no output size');
  return { bytes, sha256: hash.digest('hex'), ...sizeOf(info) };
}
