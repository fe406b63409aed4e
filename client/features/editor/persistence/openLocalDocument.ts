import type { JSONContent } from '@tiptap/core';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { keepUnreadableCopy, loadLocalDocument } from './documentStore.ts';

/** What the editor opens with. */
export interface OpenedDocument {
  /** The title. */
  title: string;
  /** The content, cleaned by the link rule and valid for the schema. */
  content: JSONContent;
  /** A message for the writer when the stored copy could not be used, else null. */
  problem: string | null;
  /**
   * False when the device copy could not even be read: saving then would overwrite work that
   * was never loaded, so autosave stays off for this visit.
   */
  canSave: boolean;
}

const EMPTY: JSONContent = { type: 'doc', content: [{ type: 'paragraph' }] };

/**
 * Opens the document saved on this device. A copy that does not fit the schema is kept aside
 * (never overwritten) and the editor starts empty; when storage cannot be read at all, the
 * editor starts empty with saving off.
 */
export async function openLocalDocument(): Promise<OpenedDocument> {
  let stored;
  try {
    stored = await loadLocalDocument();
  } catch {
    return {
      title: '',
      content: EMPTY,
      problem: "This browser's storage is not available, so edits will not be kept on this device.",
      canSave: false,
    };
  }
  if (!stored) return { title: '', content: EMPTY, problem: null, canSave: true };
  try {
    // The sanitiser stays out of the first download: it loads with the stored document.
    const { sanitizeDocJson } = await import('../../../../common/editor/sanitizeDocJson.ts');
    const content = sanitizeDocJson(JSON.parse(stored.json));
    if (!content) throw new Error('not a document');
    inkwellSchema().nodeFromJSON(content).check();
    const title = typeof stored.title === 'string' ? stored.title : '';
    return { title, content, problem: null, canSave: true };
  } catch {
    await keepUnreadableCopy(stored).catch(() => undefined);
    return {
      title: stored.title,
      content: EMPTY,
      problem: "The document saved on this device couldn't be opened. A copy was kept aside.",
      canSave: true,
    };
  }
}
