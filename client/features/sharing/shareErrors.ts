import { ApiError, NetworkError } from '../../lib/api.ts';

/**
 * What the share dialog says when a request fails: the wait of a 429, being offline, otherwise
 * the server's own sentence (a 404 says what is missing: the document, the person, the link).
 */
export function shareErrorText(error: unknown): string {
  if (error instanceof NetworkError) {
    return "Couldn't reach the server. Check your connection and try again.";
  }
  if (error instanceof ApiError) {
    if (error.status === 429) {
      // The server's sentence names the limit; the wait comes from Retry-After either way.
      return error.retryAfter
        ? `Too many tries for now. Try again in ${error.retryAfter} s.`
        : error.message;
    }
    return error.message;
  }
  return 'Something went wrong. Try again.';
}

/** Whether `error` is the 404 of an address no account uses. */
export function isNoAccount(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
