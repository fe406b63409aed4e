import type { DocumentRecord, SaveResult } from '../../../../common/api/documents.ts';
import type { DraftStore } from './draftStore.ts';
import type { SaveStatus } from './saveStatus.ts';

/** What the editor holds: the title and an immutable document (compared by identity). */
export interface Snapshot<D> {
  title: string;
  doc: D;
}

/** A save as sent: the base version and whichever of title and content changed. */
export interface SaveRequest {
  baseVersion: number;
  title?: string;
  /** The content as JSON text. */
  content?: string;
}

/** Delays of {@link Autosave}, in ms. */
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

/** What {@link Autosave} works with. */
export interface AutosaveOptions<D> {
  documentId: string;
  /** The server version the editor's content started from. */
  baseVersion: number;
  /** What the server holds, or null when the editor holds something else (a restored draft). */
  saved: Snapshot<D> | null;
  /** The change counter of a restored draft: the document starts with unsaved edits. */
  restoredChange?: number;
  /** The restored draft met a newer server version: saving waits for a `keepMine`/`takeTheirs`. */
  conflicted?: boolean;
  /** Reads the editor now; called per save, never per keystroke. */
  read: () => Snapshot<D>;
  /** The document as JSON text. */
  serialize: (doc: D) => string;
  /** Sends a save; with `keepalive`, null when the request is too large to outlive the page. */
  send: (request: SaveRequest, keepalive: boolean) => Promise<SaveResult> | null;
  /**
   * Set when the server does not have the document yet (an import shown before its create is
   * acknowledged): the first request creates it, as the editor opened it, and repeating it must
   * be harmless. Edits wait for it and are saved on top of the version it answers. With
   * `keepalive`, null when the request is too large to outlive the page.
   */
  create?: (keepalive: boolean) => Promise<SaveResult> | null;
  /** The drafts of this device. */
  drafts: DraftStore;
  /** Told about each change of status. */
  onStatus: (status: SaveStatus) => void;
  /** Told when a save met another version; saving waits for a `resolve…` call. */
  onConflict: (current: DocumentRecord) => void;
  /** Told about each acknowledged save. */
  onSaved?: (snapshot: Snapshot<D>, result: SaveResult) => void;
  /** Told once the instance has stopped for good. */
  onDisposed?: () => void;
  timing?: Partial<AutosaveTiming>;
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
