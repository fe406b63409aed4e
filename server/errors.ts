import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../common/api/errors.ts';
import type { Logger } from './logger.ts';

export { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../common/api/errors.ts';

/** Options of an `AppError` beyond its code and message. */
export interface AppErrorOptions {
  /** Extra fields of the `error` object, such as the server's copy on a version conflict. */
  details?: Record<string, unknown>;
  /** Response headers, such as `Retry-After`. */
  headers?: Record<string, string>;
  /** The error that led to this one; logged, never sent. */
  cause?: unknown;
}

/** An error the API reports as `{ error: { code, message } }`. Create one through the factories below. */
export class AppError extends Error {
  override name = 'AppError';
  /** Stable code to branch on. */
  readonly code: ErrorCode;
  /** Extra fields of the `error` object. */
  readonly details: Record<string, unknown>;
  /** Response headers. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  /** The HTTP status that goes with the code. */
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

/** 400: the request is malformed or fails its schema. */
export const InvalidRequestError = (message = 'The request is not valid.', cause?: unknown) =>
  new AppError('invalid_request', message, { cause });

/** 401: no valid session. */
export const AuthenticationError = (message = 'Sign in to continue.') =>
  new AppError('unauthenticated', message);

/** 403: a state-changing request without the CSRF header or a same-origin `Origin`. */
export const CsrfError = (message = 'The request was rejected as a possible forgery.') =>
  new AppError('csrf_rejected', message);

/** 404: nothing here, or it belongs to someone else. */
export const NotFoundError = (message = 'Not found.') => new AppError('not_found', message);

/** 409: the save was based on an older version; `current` is the server's copy. */
export const VersionConflictError = (
  current: unknown,
  message = 'The document was changed elsewhere.',
) => new AppError('version_conflict', message, { details: { current } });

/** 413: the body is larger than the limit. */
export const PayloadTooLargeError = (message = 'The request is too large.') =>
  new AppError('payload_too_large', message);

/** 415: an upload that is not a PNG, JPEG, GIF, WebP or AVIF image, judged by its bytes. */
export const UnsupportedFileTypeError = (
  message = 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.',
) => new AppError('unsupported_file_type', message);

/** 422: an image that cannot be decoded (truncated, corrupt) or claims too many pixels. */
export const InvalidImageError = (message = 'The image could not be read.', cause?: unknown) =>
  new AppError('invalid_image', message, { cause });

/** 422: the document does not fit the editor schema. */
export const InvalidDocumentError = (message = 'The document is not valid.', cause?: unknown) =>
  new AppError('invalid_document', message, { cause });

/** 429: too many requests; the client may retry after `retryAfterSeconds`. */
export const RateLimitedError = (
  retryAfterSeconds: number,
  message = 'Too many requests. Try again shortly.',
) =>
  new AppError('rate_limited', message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/** 500: a failure on our side. The message is generic; the cause goes to the log only. */
export const InternalError = (cause?: unknown) =>
  new AppError('internal', 'Something went wrong on the server.', { cause });

/** 502: the AI provider failed or answered with something unusable. */
export const AiUpstreamError = (message = 'The AI provider did not answer.', cause?: unknown) =>
  new AppError('ai_upstream_error', message, { cause });

/** 503: no AI provider is configured. */
export const AiNotConfiguredError = (message = 'The AI assistant is not configured.') =>
  new AppError('ai_not_configured', message);

/** The general code of each status: the first listed, as later codes with a status are narrower. */
const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(ERROR_STATUS)
    .reverse()
    .map(([code, status]) => [status, code as ErrorCode]),
);

/** Turns anything thrown into an `AppError`; unknown errors become `internal`. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // Hono's own middleware (body limit, for one) throws HTTPException.
  if (error instanceof HTTPException) {
    const code = CODE_BY_STATUS.get(error.status);
    if (code && code !== 'internal') {
      return new AppError(code, error.message || `Request failed (${error.status}).`, {
        cause: error,
      });
    }
  }
  return InternalError(error);
}

/** Writes `error` as the JSON error response. */
export function errorResponse(c: Context, error: AppError): Response {
  const body: ErrorBody = { error: { ...error.details, code: error.code, message: error.message } };
  return c.json(body, error.status, error.headers);
}

/** The app's `onError`: every thrown error leaves as `{ error: { code, message } }`, 5xx are logged. */
export function createErrorHandler(logger: Logger): ErrorHandler {
  return (thrown, c) => {
    const error = toAppError(thrown);
    if (error.status >= 500) {
      logger.error(`${c.req.method} ${c.req.path} failed`, error.cause ?? error);
    }
    return errorResponse(c, error);
  };
}

/** The app's `notFound`: a 404 in the same JSON shape. */
export const notFoundHandler: NotFoundHandler = (c) => errorResponse(c, NotFoundError());
