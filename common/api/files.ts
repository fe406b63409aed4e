import { z } from 'zod';

/**
 * Uploaded images (docs/PRODUCT.md "Content"): `POST /api/files` takes the file's bytes as the
 * whole request body (no multipart, so the server can stream it), and answers with where the
 * image now lives. Errors: 413 `payload_too_large` (over `limits.fileBytes`), 415
 * `unsupported_file_type` (not one of `UPLOAD_TYPES`, judged by the bytes), 422 `invalid_image`
 * (truncated, corrupt, or more pixels than the server's bounds, the message naming the bound),
 * 429 `rate_limited` with `Retry-After` (too many uploads this minute, or under way at once).
 */

/** The image types accepted, decided from the bytes; SVG is not one of them (it can carry script). */
export const UPLOAD_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
] as const;

/** One of `UPLOAD_TYPES`. */
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** Default largest upload, in bytes (`FILE_MAX_BYTES`). */
export const DEFAULT_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** The longest side of the stored image; larger ones are scaled down to it. */
export const MAX_DISPLAY_SIDE = 2000;

/**
 * Default `FILE_MAX_PIXELS`: most pixels an upload may declare, all frames of an animation
 * together. A 108-megapixel phone photo and a 100-megapixel camera's fit; the 200-megapixel mode
 * of some phones does not (its files are mostly over `FILE_MAX_BYTES` anyway).
 */
export const DEFAULT_FILE_MAX_PIXELS = 120_000_000;

/**
 * Default `FILE_MAX_WHOLE_PIXELS`: most pixels in one frame of an image that is decoded whole
 * into memory (an interlaced PNG, a progressive JPEG, GIF, WebP, and AVIF at a quarter of it): a
 * 48-megapixel phone photo saved as a progressive JPEG fits, and takes about 170 MB to decode.
 */
export const DEFAULT_FILE_MAX_WHOLE_PIXELS = 50_000_000;

/** Longest file name kept, in characters. */
export const MAX_FILE_NAME_CHARS = 200;

/** The query of `POST /api/files`: the name the file had on the person's computer, if any. */
export const uploadFileQuerySchema = z.object({
  name: z.string().max(1000, 'The file name is too long.').optional(),
});

/** A file id in a path. */
export const fileIdSchema = z.uuid({ message: 'Not a file id.' });

/** What `POST /api/files` answers (201): the stored image, as the editor inserts it. */
export const uploadedFileSchema = z.object({
  id: z.string(),
  /** Where the image is served, `/files/<id>`: the `src` a document stores. */
  url: z.string(),
  /** The stored (re-encoded) image's size in pixels. */
  width: z.number().int(),
  height: z.number().int(),
  type: z.enum(UPLOAD_TYPES),
  /** The stored image's size in bytes. */
  bytes: z.number().int(),
  /** The name it is served under, cleaned of path parts and control characters. */
  name: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

export { fileUrl } from './fileUrl.ts';
