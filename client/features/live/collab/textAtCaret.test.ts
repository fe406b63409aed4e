// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collabEditor, FRAGMENT, network, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

/** Writers a (client 1) and b (client 2) on a paragraph `Start`, carets at its end. */
function twoWriters() {
  const docs = replicas(
    { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Start' }] }] },
    2,
  );
  docs.forEach((doc, i) => (doc.clientID = i + 1));
  network(docs);
  const [a, b] = docs.map((doc) => {
    const editor = collabEditor(doc);
    opened.push(editor);
    editor.view.dispatch(editor.state.tr.setSelection(TextSelection.atEnd(editor.state.doc)));
    return editor;
  });
  return { a: a!, b: b!, doc: docs[0]! };
}

function type(editor: Editor, text: string): void {
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

/** The paragraph's letters by writer: `a`, `b`, or `-` for the first text. */
function writers(doc: Y.Doc): string {
  const paragraph = doc.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement;
  const text = paragraph.get(0) as Y.XmlText;
  let out = '';
  for (let item = text._start; item; item = item.right) {
    if (item.deleted || !(item.content instanceof Y.ContentString)) continue;
    out += (item.id.client === 1 ? 'a' : item.id.client === 2 ? 'b' : '-').repeat(item.length);
  }
  return out;
}

describe('a local edit next to the same letter', () => {
  it('writes a letter typed before the same letter of another writer at the caret, before it', () => {
    const { a, b, doc } = twoWriters();
    type(b, 'on');
    // A's caret stayed before B's letters; A types the letter B's text begins with.
    type(a, 'o');
    expect(a.state.doc.textContent).toBe('Startoon');
    expect(writers(doc)).toBe('-----abb');
  });

  it('deletes the letter before the caret, not the same letter of another writer after it', () => {
    const { a, b, doc } = twoWriters();
    type(a, 'o');
    b.view.dispatch(b.state.tr.setSelection(TextSelection.atEnd(b.state.doc)));
    type(b, 'o');
    expect(writers(doc)).toBe('-----ab');
    const at = a.state.selection.from;
    a.view.dispatch(a.state.tr.delete(at - 1, at));
    expect(a.state.doc.textContent).toBe('Starto');
    expect(writers(doc)).toBe('-----b');
  });
});
