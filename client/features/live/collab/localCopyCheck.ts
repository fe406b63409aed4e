import * as Y from 'yjs';

/*
 * y-indexeddb applies this device's copy of a document inside a promise of its own: a record it
 * cannot read (a broken write, a copy from an incompatible version) throws there, as an unhandled
 * rejection, after part of it may already be in the document, and the copy goes on growing. So
 * the copy is read once before y-indexeddb opens it; one that cannot be read is deleted and the
 * document continues from the server's state (docs/PRODUCT.md "Keeping work safe": the server's
 * copy is whole; what this device had not sent yet is the loss, and the writer is told).
 */

/** What {@link checkLocalCopy} found. */
export type LocalCopyCheck = 'readable' | 'deleted';

const UPDATES = 'updates';

/** Whether every record of a local copy applies to a Y.Doc (a scratch one, never the shown one). */
export function readableUpdates(records: readonly unknown[]): boolean {
  const scratch = new Y.Doc();
  try {
    scratch.transact(() => {
      for (const record of records) {
        if (!(record instanceof Uint8Array)) throw new TypeError('not an update');
        Y.applyUpdate(scratch, record);
      }
    });
    return true;
  } catch {
    return false;
  } finally {
    scratch.destroy();
  }
}

/**
 * Reads the local copy `name` (if this device has one) and deletes it when it cannot be read.
 * Never rejects: a copy that cannot even be opened is treated the same way.
 */
export async function checkLocalCopy(
  name: string,
  factory: IDBFactory = indexedDB,
): Promise<LocalCopyCheck> {
  try {
    const databases = await factory.databases();
    if (!databases.some((database) => database.name === name)) return 'readable';
    const records = await readRecords(name, factory);
    if (records && readableUpdates(records)) return 'readable';
  } catch {
    // Unreadable: deleted below.
  }
  await deleteCopy(name, factory);
  return 'deleted';
}

/** The copy's update records, or null when it has no update store. */
function readRecords(name: string, factory: IDBFactory): Promise<unknown[] | null> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name);
    // Gone since it was listed: not created here (y-indexeddb makes its stores when it opens it).
    let gone = false;
    open.onupgradeneeded = () => {
      gone = true;
      open.transaction?.abort();
    };
    open.onerror = () => {
      if (gone) resolve([]);
      else reject(open.error ?? new Error(`Couldn't open ${name}.`));
    };
    open.onsuccess = () => {
      const db = open.result;
      const done = (records: unknown[] | null) => {
        db.close();
        resolve(records);
      };
      try {
        if (!db.objectStoreNames.contains(UPDATES)) {
          done(null);
          return;
        }
        const read = db.transaction([UPDATES], 'readonly').objectStore(UPDATES).getAll();
        read.onsuccess = () => done(read.result as unknown[]);
        read.onerror = () => {
          db.close();
          reject(read.error ?? new Error(`Couldn't read ${name}.`));
        };
      } catch (error) {
        db.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
  });
}

function deleteCopy(name: string, factory: IDBFactory): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = factory.deleteDatabase(name);
      request.onsuccess = request.onerror = () => resolve();
      // Another tab has it open: it goes once that tab lets go.
      request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}
