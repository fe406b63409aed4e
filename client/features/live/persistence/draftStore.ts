/**
 * Unsaved edits of one document, kept on this device until the server acknowledges them
 * (docs/PRODUCT.md "Keeping work safe"), so that they survive a reload, a crash or a lost
 * connection.
 */
export interface Draft {
  /** The server document the edits belong to. */
  documentId: string;
  /** The server version the edits started from. */
  baseVersion: number;
  /** The title. */
  title: string;
  /**
   * The content as ProseMirror JSON text. Text, not objects: cloning one string into IndexedDB
   * is far cheaper than cloning the tens of thousands of objects of a long document.
   */
  json: string;
  /** This device's count of edits when the draft was written; a later edit has a larger one. */
  change: number;
  /** When it was written, in milliseconds since the epoch. */
  savedAt: number;
}

/** Where drafts live: IndexedDB in the app, a test double in tests. */
export interface DraftStore {
  /** The stored record for a document, unchecked (storage can hold anything); see {@link asDraft}. */
  get(documentId: string): Promise<unknown>;
  /** Stores a draft, replacing the document's previous one. */
  put(draft: Draft): Promise<void>;
  /**
   * Deletes the document's draft if it holds no edit after `change`, in one transaction: the
   * draft of a newer edit, written meanwhile, stays.
   */
  deleteUpTo(documentId: string, change: number): Promise<void>;
  /** Moves a record that could not be opened out of the way, never overwriting it. */
  keepAside(documentId: string, record: unknown): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The record as a draft, or null when it is not one (an old format, or tampered with). */
export function asDraft(record: unknown): Draft | null {
  if (!isObject(record)) return null;
  const { documentId, baseVersion, title, json, change, savedAt } = record;
  if (typeof documentId !== 'string' || typeof title !== 'string' || typeof json !== 'string') {
    return null;
  }
  if (!Number.isInteger(baseVersion) || !Number.isInteger(change)) return null;
  if (typeof savedAt !== 'number') return null;
  return {
    documentId,
    title,
    json,
    baseVersion: baseVersion as number,
    change: change as number,
    savedAt,
  };
}

/** Whether a stored record may go once the edits up to `change` are saved. */
export function isSupersededBy(record: unknown, change: number): boolean {
  const draft = asDraft(record);
  // A record that is not a draft is left for opening to keep aside, never deleted unseen.
  return draft !== null && draft.change <= change;
}
