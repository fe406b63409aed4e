import type { SaveResult } from '../../../../common/api/documents.ts';
import { isRefusal, retryWait, type RetryTiming } from './saveFailure.ts';

/** Waits between the attempts to create a document made in this tab (offline, server down). */
const CREATE_RETRY: RetryTiming = { retryDelay: 1000, maxRetryDelay: 30_000 };

/**
 * Creates a document made in this tab by `send` (pendingDocuments.ts), trying again until the
 * server has it, while `live()`. Throws a refusal that trying again cannot fix; `onRetry` hears
 * of each attempt that failed otherwise.
 */
export async function createOnServer(
  send: () => Promise<SaveResult> | null,
  live: () => boolean,
  onRetry: () => void,
): Promise<SaveResult> {
  for (let attempt = 1; ; attempt += 1) {
    let failure: unknown;
    try {
      const sending = send();
      if (sending) return await sending;
    } catch (error) {
      if (isRefusal(error) || !live()) throw error;
      failure = error;
      onRetry();
    }
    await new Promise((resolve) => setTimeout(resolve, retryWait(failure, attempt, CREATE_RETRY)));
  }
}
