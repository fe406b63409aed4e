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

/** Two writers on a paragraph `Start`, with the given Yjs client ids (which order ties). */
function twoWriters(ids: [number, number] = [1, 2]) {
  const docs = replicas(
    { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Start' }] }] },
    2,
  );
  docs.forEach((doc, i) => (doc.clientID = ids[i]!));
  const net = network(docs);
  const [a, b] = docs.map((doc) => {
    const editor = collabEditor(doc);
    opened.push(editor);
    return editor;
  });
  return { a: a!, b: b!, docs, net };
}

function select(editor: Editor, from: number, to = from): void {
  editor.view.dispatch(
    editor.state.tr.setSelection(TextSelection.create(editor.state.doc, from, to)),
  );
}

function type(editor: Editor, text: string): void {
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

/** The paragraph's letters by writer: `a` for client 1, `b` for client 2, `-` for the rest. */
function writers(doc: Y.Doc): string {
  const paragraph = doc.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement;
  const text = paragraph.get(0) as Y.XmlText;
  let out = '';
  for (let item = text._start; item; item = item.right) {
    if (item.deleted || !(item.content instanceof Y.ContentString)) continue;
    const who = item.id.client === 1 ? 'a' : item.id.client === 2 ? 'b' : '-';
    out += who.repeat(item.length);
  }
  return out;
}

/** The end of `Start`: a chunk and a paragraph open before its text. */
const END = 7;

describe("a writer's selection when another writer's change arrives", () => {
  it('keeps the caret before what the other writer types at it', () => {
    const { a, b } = twoWriters();
    select(a, END);
    select(b, END);
    type(b, 'XY');
    expect(a.state.doc.textContent).toBe('StartXY');
    expect(a.state.selection.from).toBe(END);
    type(a, 'ab');
    expect(b.state.doc.textContent).toBe('StartabXY');
  });

  it.each([
    [1, 2],
    [2, 1],
  ] as [number, number][])(
    'keeps the caret after its own letter when the same letter of the other lands beside it (ids %i, %i)',
    (...ids) => {
      const { a, b, docs, net } = twoWriters(ids);
      select(a, END);
      select(b, END);
      net.hold();
      type(a, 'o');
      type(b, 'o');
      net.flush();
      net.hold();
      type(a, 'n');
      type(b, 'x');
      net.flush();
      // Each writer's letters together, whichever came first.
      expect(['Startonox', 'Startoxon']).toContain(a.state.doc.textContent);
      expect(['-----aabb', '-----bbaa']).toContain(writers(docs[0]!));
      expect(b.state.doc.textContent).toBe(a.state.doc.textContent);
    },
  );

  it('keeps what is inserted at either edge of a range out of it', () => {
    const { a, b } = twoWriters();
    select(a, 3, 6);
    select(b, 6);
    type(b, 'Y');
    select(b, 3);
    type(b, 'X');
    expect(a.state.doc.textContent).toBe('SXtarYt');
    const { from, to } = a.state.selection;
    expect(a.state.doc.textBetween(from, to)).toBe('tar');
  });
});
