import type { Editor } from '@tiptap/core';
import { Slice, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { frontMatterAsBlock } from '../dialects/frontMatter/frontMatterAsBlock.ts';

/**
 * Inserts a parsed document at the selection: a single paragraph of Markdown joins the line it
 * lands in; anything else (a heading, a list, several paragraphs) is inserted as whole blocks,
 * splitting the line, so `## Title` stays a heading instead of melting into the text around it.
 */
export function insertDocument(editor: Editor, parsed: ProseMirrorNode): void {
  const doc = frontMatterAsBlock(parsed);
  const { state, view } = editor;
  const inline = doc.childCount === 1 && doc.firstChild?.type.name === 'paragraph';
  const slice = inline ? Slice.maxOpen(doc.content) : new Slice(doc.content, 0, 0);
  const tr = state.tr.replaceSelection(slice);
  tr.setMeta('paste', true).setMeta('uiEvent', 'paste').scrollIntoView();
  view.dispatch(tr);
}
