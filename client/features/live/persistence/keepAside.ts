import type { SetAsideCopy } from '../collab/setAsideCopy.ts';
import { deviceDatabase } from './deviceDatabase.ts';

/**
 * Keeps a refused device copy of `documentId` in the kept-aside store, so that nobody's text is
 * ever thrown away: sign-out counts it among the text only this device holds before deleting it.
 */
export async function keepAside(documentId: string, update: Uint8Array): Promise<void> {
  const record: SetAsideCopy = { kind: 'live-copy', update };
  const db = await deviceDatabase();
  await db.add('keptAside', { documentId, record, keptAt: Date.now() });
}
