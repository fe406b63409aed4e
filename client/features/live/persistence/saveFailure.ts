import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';

/** What a failed save leads to. */
export type SaveFailure =
  /** Another version was saved meanwhile: the writer chooses. */
  | { kind: 'conflict'; current: DocumentRecord }
  /** The server refused the edits; the same request would be refused again. */
  | { kind: 'held'; message: string }
  /** Worth trying again after `wait` ms; `offline` when the server was not reached at all. */
  | { kind: 'retry'; wait: number; offline: boolean };

/** Refusals that the same request would meet again: no retry until the next edit. */
const HELD_CODES = new Set([
  'invalid_request',
  'csrf_rejected',
  'not_found',
  'payload_too_large',
  'invalid_document',
]);

/** Whether the server refused the request for good: sending it again would meet the same answer. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && HELD_CODES.has(error.code);
}

/** Waits between attempts of a request that failed, in ms. */
export interface RetryTiming {
  /** The wait after the first failure; it doubles with each failure after. */
  retryDelay: number;
  /** The longest wait. */
  maxRetryDelay: number;
}

/** The title's saves (TitleSave.ts). */
export const SAVE_RETRY: RetryTiming = { retryDelay: 2000, maxRetryDelay: 60_000 };

/**
 * The wait before trying again after `attempt` failures in a row: doubled with each, up to the
 * longest, and never shorter than the server's Retry-After. The one back-off of the client's
 * requests.
 */
export function retryWait(error: unknown, attempt: number, timing: RetryTiming): number {
  const wait = Math.min(timing.retryDelay * 2 ** (attempt - 1), timing.maxRetryDelay);
  const asked = error instanceof ApiError && error.retryAfter ? error.retryAfter * 1000 : 0;
  return Math.max(wait, asked);
}

/**
 * Decides what a failed save leads to. `attempt` counts the failures in a row, this one
 * included (see {@link retryWait}).
 */
export function classifySaveFailure(
  error: unknown,
  attempt: number,
  timing: RetryTiming = SAVE_RETRY,
): SaveFailure {
  if (error instanceof ApiError && error.code === 'version_conflict' && error.current) {
    return { kind: 'conflict', current: error.current };
  }
  if (isRefusal(error)) return { kind: 'held', message: error.message };
  const wait = retryWait(error, attempt, timing);
  return { kind: 'retry', wait, offline: error instanceof NetworkError };
}
