import type { Editor } from '@tiptap/core';
import type { CollaborationStorage } from './Collaboration.ts';

/**
 * Opens the shared document in an editor made with Collaboration's `openWhenMounted`, once
 * EditorContent has mounted its view (Editor.tsx); nothing for any other editor, or once opened.
 * Types only from the collaboration code: the page's first chunk calls this.
 */
export function openSharedDocument(editor: Editor): void {
  if (editor.isDestroyed) return;
  const storage = editor.storage as { inkwellCollaboration?: CollaborationStorage };
  storage.inkwellCollaboration?.binding?.openNow();
}
