// @vitest-environment jsdom
import type { Editor, JSONContent } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { blocksOf } from '../../editor/chunks/chunks.ts';
import { collabEditor, network, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

const START: JSONContent = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Start' }] }],
};

/** Two writers on `content` (a paragraph `Start`), carets placed at its end. */
function twoWriters(content = START) {
  const docs = replicas(content, 2);
  network(docs);
  const [a, b] = docs.map((doc) => {
    const editor = collabEditor(doc);
    opened.push(editor);
    place(editor, endOfText(editor));
    return editor;
  });
  return { a: a!, b: b! };
}

/** The end of the document's last text. */
function endOfText(editor: Editor): number {
  let end = 0;
  editor.state.doc.descendants((node, pos) => {
    if (node.isText) end = pos + node.nodeSize;
  });
  return end;
}

function place(editor: Editor, pos: number): void {
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, pos)));
}

function type(editor: Editor, text: string): void {
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

/** Enter as the key reaches the editor (every keydown handler in turn). */
function enter(editor: Editor): void {
  const { view } = editor;
  const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
  view.someProp('handleKeyDown', (handle) => handle(view, event));
}

const paragraphs = (editor: Editor) => blocksOf(editor.state.doc).map((block) => block.textContent);

describe('Enter with text another writer typed at the caret', () => {
  it('starts the new paragraph after that text, which stays with its writer', () => {
    const { a, b } = twoWriters();
    type(b, ' one');
    enter(a);
    type(a, 'alpha');
    type(b, ' two');
    expect(paragraphs(a)).toEqual(['Start one two', 'alpha']);
    expect(paragraphs(b)).toEqual(paragraphs(a));
  });

  it('does the same in a list item', () => {
    const item = (text: string) => ({
      type: 'listItem',
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    });
    const { a, b } = twoWriters({
      type: 'doc',
      content: [{ type: 'bulletList', content: [item('Start')] }],
    });
    type(b, ' one');
    enter(a);
    type(a, 'alpha');
    type(b, ' two');
    const items = (editor: Editor) => {
      const list = blocksOf(editor.state.doc)[0]!;
      return Array.from({ length: list.childCount }, (_, i) => list.child(i).textContent);
    };
    expect(items(a)).toEqual(['Start one two', 'alpha']);
    expect(items(b)).toEqual(items(a));
  });

  it('splits at the caret where the text after it was there when the caret was placed', () => {
    const { a } = twoWriters();
    place(a, 5);
    enter(a);
    type(a, 'X');
    expect(paragraphs(a)).toEqual(['Sta', 'Xrt']);
  });

  it('splits at the caret once the writer has placed it again', () => {
    const { a, b } = twoWriters();
    type(b, ' one');
    place(a, 7);
    enter(a);
    expect(paragraphs(a)).toEqual(['Start', ' one']);
  });
});
