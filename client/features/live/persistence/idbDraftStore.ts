import { deviceDatabase } from './deviceDatabase.ts';
import { isSupersededBy, type DraftStore } from './draftStore.ts';

/** The drafts of this device, in IndexedDB. */
export const idbDraftStore: DraftStore = {
  async get(documentId) {
    return (await deviceDatabase()).get('drafts', documentId);
  },

  async put(draft) {
    await (await deviceDatabase()).put('drafts', draft, draft.documentId);
  },

  async deleteUpTo(documentId, change) {
    const tx = (await deviceDatabase()).transaction('drafts', 'readwrite');
    // Read and delete in one transaction, so a newer draft written by another save waits.
    const record = await tx.store.get(documentId);
    if (record !== undefined && isSupersededBy(record, change)) await tx.store.delete(documentId);
    await tx.done;
  },

  async keepAside(documentId, record) {
    const tx = (await deviceDatabase()).transaction(['drafts', 'keptAside'], 'readwrite');
    await tx.objectStore('keptAside').add({ documentId, record, keptAt: Date.now() });
    await tx.objectStore('drafts').delete(documentId);
    await tx.done;
  },
};
