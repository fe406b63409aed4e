// @vitest-environment jsdom
import type { Editor, JSONContent } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { blocksOf, unchunked } from '../../editor/chunks/chunks.ts';
import { collabEditor, network, replicas } from './test/testEditors.ts';

/*
 * An undo step that reaches back to the making of a block, or of the text inside an empty block,
 * must not take with it what another writer typed into that block since (docs/PRODUCT.md
 * "Keeping work safe"). Each undo below is one step: capture is closed before this writer starts,
 * so nothing depends on Y.UndoManager's 500 ms merge.
 */

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

function pair(json: JSONContent): { a: Editor; b: Editor; docs: Y.Doc[] } {
  const docs = replicas(json, 2);
  const [a, b] = docs.map((doc) => collabEditor(doc));
  opened.push(a!, b!);
  network(docs);
  return { a: a!, b: b!, docs };
}

/** Position at the end of the text of the `index`th textblock. */
function endOf(editor: Editor, index: number): number {
  let found = -1;
  let seen = 0;
  editor.state.doc.descendants((node, pos) => {
    if (found >= 0) return false;
    if (!node.isTextblock) return true;
    if (seen++ === index) found = pos + 1 + node.content.size;
    return false;
  });
  if (found < 0) throw new Error(`no textblock ${index}`);
  return found;
}

function type(editor: Editor, pos: number, text: string): void {
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, pos)));
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

function enterAt(editor: Editor, pos: number): void {
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, pos)));
  editor.commands.keyboardShortcut('Enter');
}

function texts(editor: Editor): string[] {
  const out: string[] = [];
  unchunked(editor.state.doc).descendants((node) => {
    if (!node.isTextblock) return true;
    out.push(node.textContent);
    return false;
  });
  return out;
}

function undoOnce(editor: Editor): void {
  const undoManager = editor.storage.inkwellCollaboration.undoManager;
  expect(undoManager?.undoStack).toHaveLength(1);
  undoManager?.undo();
}

function freshStep(editor: Editor): void {
  editor.storage.inkwellCollaboration.undoManager?.stopCapturing();
}

const para = (text?: string): JSONContent =>
  text ? { type: 'paragraph', content: [{ type: 'text', text }] } : { type: 'paragraph' };

describe('undo of a step that made a block another writer typed into', () => {
  it("keeps the other writer's words typed into my first characters of an empty paragraph", () => {
    const { a, b } = pair({ type: 'doc', content: [para('Intro'), para()] });
    freshStep(a);
    type(a, endOf(a, 1), 'Hello');
    type(b, endOf(b, 1), ' world');
    expect(texts(b)).toEqual(['Intro', 'Hello world']);
    undoOnce(a);
    expect(texts(a)).toEqual(['Intro', ' world']);
    expect(texts(b)).toEqual(['Intro', ' world']);
    a.storage.inkwellCollaboration.undoManager?.redo();
    expect(texts(b)).toEqual(['Intro', 'Hello world']);
  });

  it("keeps the other writer's words in the first paragraph of an empty document", () => {
    const docs = replicas({ type: 'doc', content: [] }, 2);
    network(docs);
    const a = collabEditor(docs[0]!);
    opened.push(a);
    freshStep(a);
    type(a, endOf(a, 0), 'Hi');
    // The other writer opens it once the paragraph exists (an empty document shows one that is
    // not shared until typed into).
    const b = collabEditor(docs[1]!);
    opened.push(b);
    type(b, endOf(b, 0), ' there');
    expect(texts(a)).toEqual(['Hi there']);
    undoOnce(a);
    expect(texts(a)).toEqual([' there']);
    expect(texts(b)).toEqual([' there']);
  });

  it("keeps the other writer's words in a paragraph I made with Enter", () => {
    const { a, b } = pair({ type: 'doc', content: [para('Intro'), para('End')] });
    freshStep(a);
    enterAt(a, endOf(a, 0));
    type(a, endOf(a, 1), 'Mine');
    type(b, endOf(b, 1), ' theirs');
    expect(texts(b)).toEqual(['Intro', 'Mine theirs', 'End']);
    undoOnce(a);
    expect(texts(a)).toEqual(['Intro', ' theirs', 'End']);
    expect(texts(b)).toEqual(['Intro', ' theirs', 'End']);
  });

  it("keeps the other writer's words in a list item I made with Enter", () => {
    const list: JSONContent = {
      type: 'bulletList',
      content: [{ type: 'listItem', content: [para('one')] }],
    };
    const { a, b } = pair({ type: 'doc', content: [list, para('End')] });
    freshStep(a);
    enterAt(a, endOf(a, 0));
    type(a, endOf(a, 1), 'two');
    type(b, endOf(b, 1), ' three');
    expect(texts(b)).toEqual(['one', 'two three', 'End']);
    undoOnce(a);
    expect(texts(a)).toEqual(['one', ' three', 'End']);
    expect(texts(b)).toEqual(['one', ' three', 'End']);
    expect(unchunked(a.state.doc).toJSON()).toEqual(unchunked(b.state.doc).toJSON());
    expect(unchunked(a.state.doc).child(0).childCount).toBe(2);
  });

  it('still takes back the whole block when nobody else typed into it', () => {
    const { a, b } = pair({ type: 'doc', content: [para('Intro'), para('End')] });
    freshStep(a);
    enterAt(a, endOf(a, 0));
    type(a, endOf(a, 1), 'Mine');
    undoOnce(a);
    expect(texts(a)).toEqual(['Intro', 'End']);
    expect(texts(b)).toEqual(['Intro', 'End']);
    expect(blocksOf(b.state.doc)).toHaveLength(2);
  });
});
