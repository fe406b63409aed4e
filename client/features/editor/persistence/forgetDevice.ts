import { deviceDatabase } from './deviceDatabase.ts';

/**
 * How many documents have text only this device holds: drafts the server has not acknowledged
 * (offline, or refused) and drafts kept aside because they could not be opened.
 */
export async function unsavedOnDevice(): Promise<number> {
  const db = await deviceDatabase();
  const tx = db.transaction(['drafts', 'keptAside'], 'readonly');
  const [drafts, keptAside] = await Promise.all([
    tx.objectStore('drafts').getAllKeys(),
    tx.objectStore('keptAside').getAll(),
  ]);
  await tx.done;
  return new Set([...drafts, ...keptAside.map((kept) => kept.documentId)]).size;
}

/**
 * Deletes every draft and kept-aside copy from this device, at sign-out: on a shared computer
 * the next person must not find the last one's text in the browser's storage.
 */
export async function forgetDevice(): Promise<void> {
  const db = await deviceDatabase();
  const tx = db.transaction(['drafts', 'keptAside'], 'readwrite');
  await Promise.all([tx.objectStore('drafts').clear(), tx.objectStore('keptAside').clear()]);
  await tx.done;
}
