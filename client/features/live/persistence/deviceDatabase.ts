import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** The document of the first, device-only Inkwell, before documents lived on the server. */
export interface LegacyDocument {
  title: string;
  json: string;
  updatedAt: number;
}

/** Inkwell's IndexedDB database on this device. */
export interface DeviceDb extends DBSchema {
  /** Version 1: the single device document under `local`, and unreadable copies beside it. */
  documents: { key: string; value: LegacyDocument };
  /** Unsaved edits by document id; values are checked on the way out (see draftStore.ts). */
  drafts: { key: string; value: unknown };
  /** Drafts that could not be opened, kept so that nobody's text is ever thrown away. */
  keptAside: { key: number; value: { documentId: string; record: unknown; keptAt: number } };
}

const DB_NAME = 'inkwell';
const DB_VERSION = 2;

let opening: Promise<IDBPDatabase<DeviceDb>> | undefined;

/** The database, opened once and reopened after another tab upgrades or the browser closes it. */
export function deviceDatabase(): Promise<IDBPDatabase<DeviceDb>> {
  opening ??= openDB<DeviceDb>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion) {
      // Version 1's store (the device-only document) is left as it was: nothing reads it any
      // more, and deleting it could throw away the only copy of someone's text.
      if (oldVersion < 1) db.createObjectStore('documents');
      if (oldVersion < 2) {
        db.createObjectStore('drafts');
        db.createObjectStore('keptAside', { autoIncrement: true });
      }
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
