import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/csrf.ts';
import type { UploadedFile } from '../../common/api/files.ts';

/** Options of {@link uploadFile}. */
export interface UploadOptions {
  /** Called as the body goes out, with the share sent (0 to 1). */
  onProgress?: (fraction: number) => void;
  /** Cancels the upload; the promise then rejects with {@link UploadCancelledError}. */
  signal?: AbortSignal;
}

/** The writer cancelled the upload. */
export class UploadCancelledError extends Error {
  override name = 'UploadCancelledError';
}

/** The upload failed; the message is fit to show to the writer. */
export class UploadError extends Error {
  override name = 'UploadError';

  constructor(
    message: string,
    /** The HTTP status, or 0 when no answer came back. */
    readonly status: number,
  ) {
    super(message);
  }
}

/** Whether `value` has the fields the editor needs from `POST /api/files`. */
function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    typeof file.id === 'string' &&
    typeof file.url === 'string' &&
    file.url.startsWith('/files/') &&
    typeof file.width === 'number' &&
    typeof file.height === 'number'
  );
}

/** The server's sentence from an error answer (`{ error: { message } }`), or one of ours. */
function errorMessage(status: number, body: unknown): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof message === 'string' && message) return message;
  if (status === 413) return 'This file is too large to upload.';
  if (status === 415) return 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.';
  if (status === 401) return 'Your session has ended. Sign in again to upload.';
  return `The upload failed (${status}). Please try again.`;
}

/**
 * Sends `file` to `POST /api/files` as the request body and resolves with the stored image.
 * XMLHttpRequest rather than the API client's fetch: only it reports upload progress, which the
 * placeholder shows. The server decides the type from the bytes; the name only labels the file.
 */
export function uploadFile(file: Blob, name: string, options: UploadOptions = {}) {
  return new Promise<UploadedFile>((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(new UploadCancelledError('The upload was cancelled.'));
      return;
    }
    const request = new XMLHttpRequest();
    const onAbort = () => request.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    request.open('POST', `/api/files?name=${encodeURIComponent(name)}`);
    request.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      signal?.removeEventListener('abort', onAbort);
      const body: unknown = request.response;
      if (request.status === 201 && isUploadedFile(body)) resolve(body);
      else reject(new UploadError(errorMessage(request.status, body), request.status));
    };
    request.onerror = () => {
      signal?.removeEventListener('abort', onAbort);
      reject(new UploadError("Couldn't reach Inkwell to upload. Check the connection.", 0));
    };
    request.onabort = () => reject(new UploadCancelledError('The upload was cancelled.'));
    request.send(file);
  });
}
