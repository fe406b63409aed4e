/**
 * This device's copies of shared documents (y-indexeddb keeps each in an IndexedDB database of its
 * own). Without yjs, so that signing out can clear them without loading the editor's code.
 */

const PREFIX = 'inkwell-live:';

/** The IndexedDB database holding `userId`'s copy of `documentId`: per person, never shared. */
export function localCopyName(userId: string, documentId: string): string {
  return `${PREFIX}${userId}:${documentId}`;
}

/** Whether `name` is one of {@link localCopyName}'s databases. */
export function isLocalCopyName(name: string | undefined): name is string {
  return name?.startsWith(PREFIX) ?? false;
}

/**
 * Deletes every local copy of a shared document on this device, at sign-out: the next person at
 * a shared computer must not find the last one's text. Their connections must be closed first
 * (an open database blocks its deletion).
 */
export async function forgetLocalCopies(factory: IDBFactory = indexedDB): Promise<void> {
  const databases = await factory.databases();
  await Promise.all(
    databases
      .map((database) => database.name)
      .filter(isLocalCopyName)
      .map((name) => deleteDatabase(factory, name)),
  );
}

/**
 * Deletes `userId`'s copy of `documentId` on this device, once the document is no longer theirs
 * (access withdrawn, trashed, gone): nobody keeps a copy of a document they lost. Its connection
 * must be closed first.
 */
export function forgetLocalCopy(
  userId: string,
  documentId: string,
  factory: IDBFactory = indexedDB,
): Promise<void> {
  return deleteDatabase(factory, localCopyName(userId, documentId));
}

function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`Couldn't delete ${name}.`));
    // Another tab still has it open: it goes once that tab lets go.
    request.onblocked = () => resolve();
  });
}
