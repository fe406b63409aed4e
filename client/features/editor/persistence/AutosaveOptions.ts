/** A save as sent: the base version and whichever of title and content changed. */
export interface SaveRequest {
  baseVersion: number;
  title?: string;
  /** The content as JSON text. */
  content?: string;
}

/** Delays of saving to the server (the title, TitleSave.ts), in ms. */
export interface AutosaveTiming {
  /** Quiet time after the last edit before saving to the server. */
  delay: number;
  /**
   * Longest an edit waits for the server while typing goes on (docs/PRODUCT.md "Keeping work safe":
   * 5 s).
   */
  maxWait: number;
  /** Quiet time before an edit is written to the draft on this device. */
  draftDelay: number;
  /** Longest an edit waits for the draft while typing goes on. */
  draftMaxWait: number;
  /** First wait before retrying a failed save; doubles up to `maxRetryDelay`. */
  retryDelay: number;
  /** Longest wait between retries. */
  maxRetryDelay: number;
}

/**
 * The delays of docs/PRODUCT.md "Keeping work safe": save after about a second of quiet, never more
 * than five.
 */
export const DEFAULT_TIMING: AutosaveTiming = {
  delay: 1000,
  maxWait: 5000,
  draftDelay: 300,
  draftMaxWait: 1000,
  retryDelay: 2000,
  maxRetryDelay: 60_000,
};
