import type { Editor } from '@tiptap/core';
import { Slice, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';

/**
 * Replaces the whole document with `doc` in one transaction (one undo step). Building the new
 * content from JSON or HTML again, as `setContent` would, doubles the time for a large file.
 */
export function replaceDocument(editor: Editor, doc: ProseMirrorNode): void {
  const { state, view } = editor;
  const tr = state.tr.replaceWith(0, state.doc.content.size, doc.content);
  tr.setSelection(TextSelection.atStart(tr.doc));
  view.dispatch(tr);
  // The caret is at the very top: scrolling the window there is free, while ProseMirror's
  // scrollIntoView would measure the new document first (about 80 ms for 1.2 MB).
  window.scrollTo(0, 0);
}

/**
 * Inserts a parsed document at the selection: a single paragraph of Markdown joins the line it
 * lands in; anything else (a heading, a list, several paragraphs) is inserted as whole blocks,
 * splitting the line, so `## Title` stays a heading instead of melting into the text around it.
 */
export function insertDocument(editor: Editor, doc: ProseMirrorNode): void {
  const { state, view } = editor;
  const inline = doc.childCount === 1 && doc.firstChild?.type.name === 'paragraph';
  const slice = inline ? Slice.maxOpen(doc.content) : new Slice(doc.content, 0, 0);
  const tr = state.tr.replaceSelection(slice);
  tr.setMeta('paste', true).setMeta('uiEvent', 'paste').scrollIntoView();
  view.dispatch(tr);
}
