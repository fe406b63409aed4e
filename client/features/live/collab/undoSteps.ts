import type { Editor } from '@tiptap/core';
import type {} from './Collaboration.ts';

/**
 * Ends the current undo step of this writer on a shared document: Y.UndoManager merges changes
 * made within 500 ms into one step, so a change that must be its own step (an accepted AI
 * suggestion) is fenced on both sides. Does nothing on an editor without collaboration, whose own
 * history is closed by `closeHistory`. Type-only import: no yjs for editors without it.
 */
export function stopCapturing(editor: Editor): void {
  const storage = editor.storage as Partial<Editor['storage']>;
  storage.inkwellCollaboration?.undoManager?.stopCapturing();
}
