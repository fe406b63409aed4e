import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { blocksOf, chunkBlocks } from './chunks/chunks.ts';
import { rebuildInSchema } from './rebuildInSchema.ts';

/**
 * Replaces the editor's document with `doc` (in the shared schema), caret at the start, its
 * blocks in chunks. Not an edit: it cannot be undone and fires no `update` (so the counts
 * ignore it); `transaction` still fires.
 */
export function openIn(editor: Editor, doc: ProseMirrorNode): void {
  const { state, view } = editor;
  const blocks = blocksOf(rebuildInSchema(doc, editor.schema));
  const tr = state.tr.replaceWith(0, state.doc.content.size, chunkBlocks(state.schema, blocks));
  tr.setSelection(TextSelection.atStart(tr.doc));
  tr.setMeta('addToHistory', false).setMeta('preventUpdate', true);
  view.dispatch(tr);
}
