import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Selection } from '@tiptap/pm/state';
import { blocksOf } from '../../editor/chunks/chunks.ts';
import { rebuildInSchema } from '../../editor/rebuildInSchema.ts';
import { blockStart } from './blockIndex.ts';
import type { CollaborationStorage } from './Collaboration.ts';
import { deleteBlocks, insertBlocks } from './editorSteps.ts';

/**
 * Makes `version` (a document of the shared schema, checked) the content of an editor on a shared
 * document, as one edit of this writer (docs/PRODUCT.md "Version history"): an editor transaction
 * that the binding writes like typing, block by block through y-tiptap's `updateYFragment`, so
 * the shared document gets a forward change that merges with what others type meanwhile and
 * repeats nothing that is already there; its own undo step. False when the editor cannot write
 * (not on a shared document yet, read-only, or its binding stopped).
 */
export function restoreVersion(editor: Editor, version: ProseMirrorNode): boolean {
  const storage = editor.storage as { inkwellCollaboration?: CollaborationStorage };
  const binding = storage.inkwellCollaboration?.binding;
  const undoManager = storage.inkwellCollaboration?.undoManager;
  if (editor.isDestroyed || !editor.isEditable || !binding || !undoManager || binding.stopped) {
    return false;
  }
  const next = blocksOf(rebuildInSchema(version, editor.schema));
  const { state } = editor;
  const current = blocksOf(state.doc);
  // Blocks equal at either end stay the same nodes, so the binding does not visit them at all
  // and another writer's caret in them is not disturbed.
  let head = 0;
  while (head < current.length && head < next.length && current[head]!.eq(next[head]!)) head++;
  let tail = 0;
  while (
    tail < current.length - head &&
    tail < next.length - head &&
    current[current.length - 1 - tail]!.eq(next[next.length - 1 - tail]!)
  ) {
    tail++;
  }
  if (head === current.length && head === next.length) return true;
  const tr = state.tr;
  const added = next.slice(head, next.length - tail);
  const removed = current.length - head - tail;
  // Inserted first: deleting every block first would leave the empty chunk ProseMirror fills in.
  insertBlocks(tr, head, added);
  if (removed > 0) deleteBlocks(tr, head + added.length, removed);
  tr.setSelection(Selection.near(tr.doc.resolve(blockStart(tr.doc, head)), 1));
  tr.scrollIntoView();
  // Fenced on both sides: Y.UndoManager merges changes made within 500 ms into one step, which
  // would put the writer's last keystrokes, or the next ones, into the restore's undo.
  undoManager.stopCapturing();
  editor.view.dispatch(tr);
  undoManager.stopCapturing();
  return true;
}
