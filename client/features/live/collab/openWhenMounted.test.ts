// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { blocksOf, unchunked } from '../../editor/chunks/chunks.ts';
import { buildNewDocument, yDocOfNewDocument } from './newDocumentState.ts';
import { openSharedDocument } from './openWhenMounted.ts';
import { FRAGMENT, collabEditor, network, paragraphsJson, replicas } from './test/testEditors.ts';

/*
 * The page makes its editor on a shared document empty and opens the document once EditorContent
 * has mounted the view (Editor.tsx): mounting makes ProseMirror draw everything again, so a
 * document there from the start was drawn twice.
 */

const opened: Editor[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const editor of opened.splice(0)) editor.destroy();
});

function mountLater(doc: Y.Doc): Editor {
  const editor = collabEditor(doc, undefined, true);
  opened.push(editor);
  return editor;
}

const texts = (editor: Editor) => blocksOf(editor.state.doc).map((block) => block.textContent);

describe('an editor on a shared document opened once mounted', () => {
  it('is empty until opened, then shows the document, nothing written or undoable', () => {
    const [doc] = replicas(paragraphsJson(3), 1);
    const editor = mountLater(doc!);
    expect(texts(editor)).toEqual(['']);
    const before = Y.encodeStateAsUpdate(doc!);
    const transactions = vi.fn();
    editor.on('update', transactions);
    openSharedDocument(editor);
    expect(texts(editor)).toEqual(['Paragraph 0', 'Paragraph 1', 'Paragraph 2']);
    expect(Y.encodeStateAsUpdate(doc!)).toEqual(before);
    // Not an edit: nothing written to the Y.Doc, no update for the counts, nothing to undo.
    expect(transactions).not.toHaveBeenCalled();
    expect(editor.storage.inkwellCollaboration.undoManager?.undoStack).toHaveLength(0);
    // Opened once.
    openSharedDocument(editor);
    expect(texts(editor)).toHaveLength(3);
  });

  it('opens first when a remote change arrives before, then shows the change', () => {
    const [mine, theirs] = replicas(paragraphsJson(2), 2);
    const editor = mountLater(mine!);
    network([mine!, theirs!]);
    const paragraph = new Y.XmlElement('paragraph');
    theirs!.getXmlFragment(FRAGMENT).insert(2, [paragraph]);
    paragraph.insert(0, [new Y.XmlText('Remote')]);
    expect(texts(editor)).toEqual(['Paragraph 0', 'Paragraph 1', 'Remote']);
    openSharedDocument(editor);
    expect(texts(editor)).toEqual(['Paragraph 0', 'Paragraph 1', 'Remote']);
  });

  it('writes edits made after opening, as any editor does', () => {
    const [mine, theirs] = replicas(paragraphsJson(2), 2);
    const editor = mountLater(mine!);
    openSharedDocument(editor);
    network([mine!, theirs!]);
    // Inside the first paragraph, inside its chunk.
    editor.commands.insertContentAt(2, 'Typed ');
    const reader = collabEditor(theirs!);
    opened.push(reader);
    expect(texts(reader)).toEqual(['Typed Paragraph 0', 'Paragraph 1']);
  });

  it('builds a made document from the document to open when asked before it is opened', () => {
    const content = parseMarkdown('# Title\n\nFirst paragraph.\n');
    const made = yDocOfNewDocument(content);
    const editor = mountLater(made);
    buildNewDocument(made);
    openSharedDocument(editor);
    expect(unchunked(editor.state.doc).toJSON()).toEqual(content.toJSON());
    const reader = collabEditor(made);
    opened.push(reader);
    expect(unchunked(reader.state.doc).toJSON()).toEqual(content.toJSON());
  });
});
