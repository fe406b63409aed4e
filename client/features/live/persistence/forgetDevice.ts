import { forgetLocalCopies } from '../collab/localCopies.ts';
import { deviceDatabase } from './deviceDatabase.ts';
import { documentsWithUnsavedEdits } from './liveSaves.ts';

/**
 * How many documents have text only this device holds: open documents whose edits the server
 * has not stored yet, drafts of the editor before live collaboration that never reached the
 * server, and drafts kept aside because they could not be opened.
 */
export async function unsavedOnDevice(): Promise<number> {
  const db = await deviceDatabase();
  const tx = db.transaction(['drafts', 'keptAside'], 'readonly');
  const [drafts, keptAside] = await Promise.all([
    tx.objectStore('drafts').getAllKeys(),
    tx.objectStore('keptAside').getAll(),
  ]);
  await tx.done;
  return new Set([
    ...documentsWithUnsavedEdits(),
    ...drafts,
    ...keptAside.map((kept) => kept.documentId),
  ]).size;
}

/**
 * Deletes every copy of a document's text from this device, at sign-out: the shared documents'
 * IndexedDB copies, and the drafts and kept-aside copies of earlier versions. On a shared
 * computer the next person must not find the last one's text in the browser's storage.
 */
export async function forgetDevice(): Promise<void> {
  const db = await deviceDatabase();
  const tx = db.transaction(['drafts', 'keptAside'], 'readwrite');
  await Promise.all([tx.objectStore('drafts').clear(), tx.objectStore('keptAside').clear()]);
  await tx.done;
  await forgetLocalCopies();
}
