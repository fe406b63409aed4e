import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import type { AutosaveTiming } from './AutosaveOptions.ts';

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

/**
 * Decides what a failed save leads to. `attempt` counts the failures in a row, this one
 * included: the wait doubles with each, up to the longest, and is never shorter than the
 * server's Retry-After.
 */
export function classifySaveFailure(
  error: unknown,
  attempt: number,
  timing: Pick<AutosaveTiming, 'retryDelay' | 'maxRetryDelay'>,
): SaveFailure {
  if (error instanceof ApiError && error.code === 'version_conflict' && error.current) {
    return { kind: 'conflict', current: error.current };
  }
  if (isRefusal(error)) return { kind: 'held', message: error.message };
  let wait = Math.min(timing.retryDelay * 2 ** (attempt - 1), timing.maxRetryDelay);
  if (error instanceof ApiError && error.retryAfter) wait = Math.max(wait, error.retryAfter * 1000);
  return { kind: 'retry', wait, offline: error instanceof NetworkError };
}
