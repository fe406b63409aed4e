import { AiUpstreamError, RateLimitedError, type AppError } from '../errors.ts';

/** Most characters of a provider's error body that reach the log. */
export const LOGGED_BODY_CHARS = 500;
/** Wait suggested after a provider's 429 that names none. */
const DEFAULT_RETRY_AFTER_SECONDS = 20;
/** Longest wait passed on from a provider's Retry-After; past it the number is more likely wrong. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** Why the gateway stopped an upstream request itself. */
export type StopReason = 'client' | 'firstByte' | 'idle' | 'total';

/** The client went away; nobody is left to tell, so this error is only logged at debug. */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/** The timeouts `stoppedError` names, in milliseconds. */
export interface TimeoutLimits {
  firstByteMs: number;
  idleMs: number;
  totalMs: number;
}

/** The API error for an upstream request the gateway stopped for `reason`. */
export function stoppedError(
  reason: StopReason,
  limits: TimeoutLimits,
): AppError | ClientGoneError {
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  switch (reason) {
    case 'client':
      return new ClientGoneError('The client closed the request.');
    case 'firstByte':
      return AiUpstreamError(
        `The AI provider did not start answering within ${seconds(limits.firstByteMs)}.`,
      );
    case 'idle':
      return AiUpstreamError(
        `The AI provider sent nothing for ${seconds(limits.idleMs)}; the answer is cut short.`,
      );
    case 'total':
      return AiUpstreamError(
        `The AI provider took longer than ${seconds(limits.totalMs)}; the answer is cut short.`,
      );
  }
}

/** The API error for an upstream HTTP error status; the key or body never goes into the message. */
export function statusError(status: number, retryAfter: string | null, model: string): AppError {
  if (status === 401 || status === 403) return AiUpstreamError('The AI provider refused the key.');
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter);
    return RateLimitedError(
      seconds,
      `The AI provider is over its rate limit or quota. Try again in ${seconds} s.`,
    );
  }
  if (status === 404) {
    return AiUpstreamError(
      `The AI provider does not know the model "${model}", or AI_BASE_URL is wrong.`,
    );
  }
  if (status === 400 || status === 413 || status === 422) {
    return AiUpstreamError(`The AI provider rejected the request (HTTP ${status}).`);
  }
  if (status >= 500) return AiUpstreamError(`The AI provider failed (HTTP ${status}).`);
  return AiUpstreamError(`The AI provider answered HTTP ${status}.`);
}

/** Seconds of a `Retry-After` header (seconds or an HTTP date), within sane bounds. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const value = header?.trim() ?? '';
  let seconds = Number.NaN;
  if (/^\d+(\.\d+)?$/.test(value)) seconds = Number(value);
  else if (value !== '') seconds = (Date.parse(value) - now) / 1000;
  if (!Number.isFinite(seconds)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
}

/**
 * The start of a provider's error body for the log: truncated, and with the key cut out wherever
 * the provider echoed it (some quote the key they refused).
 */
export function loggableBody(body: string, apiKey: string | undefined): string {
  let text = body;
  if (apiKey) text = text.split(apiKey).join('[redacted]');
  return text.length > LOGGED_BODY_CHARS ? `${text.slice(0, LOGGED_BODY_CHARS)}…` : text;
}
