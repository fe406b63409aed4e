import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** The document kept in this browser until accounts and server storage arrive. */
export interface StoredDocument {
  /** The title, up to 200 characters. */
  title: string;
  /**
   * The content as ProseMirror JSON text. Text, not objects: cloning one string into IndexedDB
   * is far cheaper than cloning the tens of thousands of objects of a long document.
   */
  json: string;
  /** When it was saved, in milliseconds since the epoch. */
  updatedAt: number;
}

interface InkwellDb extends DBSchema {
  documents: { key: string; value: StoredDocument };
}

const DB_NAME = 'inkwell';
const LOCAL_KEY = 'local';

let opening: Promise<IDBPDatabase<InkwellDb>> | undefined;

function database(): Promise<IDBPDatabase<InkwellDb>> {
  opening ??= openDB<InkwellDb>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('documents');
    },
    blocking(_current, _blocked, event) {
      // A newer version in another tab waits for us to let go; reopen on the next use.
      (event.target as IDBDatabase).close();
      opening = undefined;
    },
    terminated() {
      opening = undefined;
    },
  }).catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening;
}

/** The document saved on this device, or undefined when there is none yet. */
export async function loadLocalDocument(): Promise<StoredDocument | undefined> {
  return (await database()).get('documents', LOCAL_KEY);
}

/** Saves the document on this device, replacing the previous copy. */
export async function saveLocalDocument(document: StoredDocument): Promise<void> {
  await (await database()).put('documents', document, LOCAL_KEY);
}

/**
 * Keeps a stored copy that could not be opened under its own key, so that starting afresh never
 * overwrites the only copy of someone's work.
 */
export async function keepUnreadableCopy(document: StoredDocument): Promise<void> {
  await (await database()).put('documents', document, `unreadable-${Date.now()}`);
}
