import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/csrf.ts';
import type { UploadedFile } from '../../common/api/files.ts';

/** Options of {@link uploadFile}. */
export interface UploadOptions {
  /** Called as the body goes out, with the share sent (0 to 1). */
  onProgress?: (fraction: number) => void;
  /** Cancels the upload; the promise then rejects with {@link UploadCancelledError}. */
  signal?: AbortSignal;
  /**
   * On a 429, wait as long as the server asks (`Retry-After`) and send again, rather than fail:
   * for imports, whose images go without the writer watching each one.
   */
  waitIfLimited?: boolean;
}

/**
 * Uploads this tab sends at once; the others wait their turn. The server refuses a person more
 * than a few under way (`FILE_UPLOADS_AT_ONCE`, 4 by default), and ten pasted images or an import's
 * embedded ones would all start together; two leave room for another tab.
 */
const UPLOADS_AT_ONCE = 2;
/** How many times one upload waits out a 429 before it fails with the server's message. */
const MOST_WAITS = 5;
/** A longer wait than this is not waited out: the writer is told instead. */
const LONGEST_WAIT_SECONDS = 120;

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
    /** Seconds the server asked to wait before trying again (`Retry-After` of a 429). */
    readonly retryAfter?: number,
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
function errorMessage(status: number, body: unknown, retryAfter: number | undefined): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof message === 'string' && message) return message;
  if (status === 429) {
    const wait = retryAfter === undefined ? 'shortly' : `in ${seconds(retryAfter)}`;
    return `Too many uploads. Try again ${wait}.`;
  }
  if (status === 413) return 'This file is too large to upload.';
  if (status === 415) return 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.';
  if (status === 401) return 'Your session has ended. Sign in again to upload.';
  return `The upload failed (${status}). Please try again.`;
}

const seconds = (n: number) => (n === 1 ? '1 second' : `${n} seconds`);

/** `Retry-After` in seconds, when it is a number of them. */
function retryAfterOf(request: XMLHttpRequest): number | undefined {
  const value = Number(request.getResponseHeader('Retry-After') ?? '');
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}

let sending = 0;
const waiting: (() => void)[] = [];

/** `action`, done the first time only. */
const once = (action: () => void) => {
  let done = false;
  return () => {
    if (!done) action();
    done = true;
  };
};

/** Waits for one of this tab's {@link UPLOADS_AT_ONCE} places; resolves with what frees it. */
function place(signal: AbortSignal | undefined): Promise<() => void> {
  const free = () => {
    const next = waiting.shift();
    if (next) next();
    else sending -= 1;
  };
  if (sending < UPLOADS_AT_ONCE) {
    sending += 1;
    return Promise.resolve(once(free));
  }
  return new Promise((resolve, reject) => {
    const take = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(once(free));
    };
    const onAbort = () => {
      waiting.splice(waiting.indexOf(take), 1);
      reject(new UploadCancelledError('The upload was cancelled.'));
    };
    waiting.push(take);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves after `ms`, or rejects with {@link UploadCancelledError} once `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UploadCancelledError('The upload was cancelled.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends `file` to `POST /api/files` as the request body and resolves with the stored image, once
 * this tab has a place for it (at most {@link UPLOADS_AT_ONCE} go at a time). A 429 rejects with
 * the server's message, which names the wait, unless `waitIfLimited` asks to wait it out.
 */
export async function uploadFile(
  file: Blob,
  name: string,
  options: UploadOptions = {},
): Promise<UploadedFile> {
  const { signal } = options;
  for (let waits = 0; ; waits += 1) {
    if (signal?.aborted) throw new UploadCancelledError('The upload was cancelled.');
    const free = await place(signal);
    let wait: number;
    try {
      return await send(file, name, options);
    } catch (error) {
      const limited = error instanceof UploadError && error.status === 429 && error.retryAfter;
      if (
        !options.waitIfLimited ||
        !limited ||
        waits >= MOST_WAITS ||
        limited > LONGEST_WAIT_SECONDS
      ) {
        throw error;
      }
      wait = limited;
    } finally {
      free();
    }
    options.onProgress?.(0);
    await pause(wait * 1000, signal);
  }
}

/**
 * One request. XMLHttpRequest rather than the API client's fetch: only it reports upload
 * progress, which the placeholder shows. The server decides the type from the bytes; the name
 * only labels the file.
 */
function send(file: Blob, name: string, options: UploadOptions) {
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
      if (request.status === 201 && isUploadedFile(body)) {
        resolve(body);
        return;
      }
      const retryAfter = retryAfterOf(request);
      reject(
        new UploadError(errorMessage(request.status, body, retryAfter), request.status, retryAfter),
      );
    };
    request.onerror = () => {
      signal?.removeEventListener('abort', onAbort);
      reject(new UploadError("Couldn't reach Inkwell to upload. Check the connection.", 0));
    };
    request.onabort = () => reject(new UploadCancelledError('The upload was cancelled.'));
    request.send(file);
  });
}
