// @vitest-environment jsdom
import type { Editor, JSONContent } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { unchunked } from '../../editor/chunks/chunks.ts';
import { restoreVersion } from './restoreVersion.ts';
import { collabEditor, FRAGMENT, network, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

const para = (text: string): JSONContent => ({
  type: 'paragraph',
  content: [{ type: 'text', text }],
});
const docOf = (...texts: string[]): JSONContent => ({ type: 'doc', content: texts.map(para) });
const version = (json: JSONContent) => inkwellSchema().nodeFromJSON(json);

function pair(json: JSONContent) {
  const docs = replicas(json, 2);
  const [a, b] = docs.map((doc) => collabEditor(doc));
  opened.push(a!, b!);
  const net = network(docs);
  return { a: a!, b: b!, docs, net };
}

function texts(editor: Editor): string[] {
  const out: string[] = [];
  unchunked(editor.state.doc).forEach((block) => out.push(block.textContent));
  return out;
}

/** The text of each block in the shared document itself. */
function sharedTexts(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment(FRAGMENT)
    .toArray()
    .map((child) => (child instanceof Y.XmlElement ? (child.toDOM().textContent ?? '') : ''));
}

/** Types `text` at the end of the `index`th block. */
function typeAtEnd(editor: Editor, index: number, text: string): void {
  let at = -1;
  let seen = 0;
  editor.state.doc.descendants((node, pos) => {
    if (at >= 0 || !node.isTextblock) return at < 0;
    if (seen++ === index) at = pos + 1 + node.content.size;
    return false;
  });
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, at)));
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

describe('restoreVersion', () => {
  it('makes the document the version for everyone, writing only the blocks that differ', () => {
    const { a, b, docs, net } = pair(docOf('Alpha', 'Beta', 'Gamma'));
    const first = docs[1]!.getXmlFragment(FRAGMENT).get(0);
    expect(restoreVersion(a, version(docOf('Alpha', 'Beta was', 'Gamma', 'Delta')))).toBe(true);
    expect(texts(a)).toEqual(['Alpha', 'Beta was', 'Gamma', 'Delta']);
    expect(texts(b)).toEqual(['Alpha', 'Beta was', 'Gamma', 'Delta']);
    expect(sharedTexts(docs[1]!)).toEqual(['Alpha', 'Beta was', 'Gamma', 'Delta']);
    // One update, and the unchanged first block is the same shared element as before.
    expect(net.sent.get(docs[0]!)).toHaveLength(1);
    expect(docs[1]!.getXmlFragment(FRAGMENT).get(0)).toBe(first);
  });

  it('keeps what another writer types at the same moment, and repeats nothing', () => {
    const { a, b, docs, net } = pair(docOf('Alpha', 'Beta', 'Gamma'));
    net.hold();
    restoreVersion(a, version(docOf('Alpha', 'Old beta', 'Gamma')));
    typeAtEnd(b, 1, ' typed');
    typeAtEnd(b, 2, ' too');
    net.flush();
    expect(texts(a)).toEqual(['Alpha', 'Old beta typed', 'Gamma too']);
    expect(texts(b)).toEqual(texts(a));
    expect(sharedTexts(docs[0]!)).toEqual(sharedTexts(docs[1]!));
  });

  it('restores a version with fewer blocks without leaving any behind', () => {
    const { a, b } = pair(docOf('Alpha', 'Beta', 'Gamma', 'Delta'));
    restoreVersion(a, version(docOf('Alpha')));
    expect(texts(a)).toEqual(['Alpha']);
    expect(texts(b)).toEqual(['Alpha']);
    restoreVersion(a, version(docOf('Zeta', 'Eta')));
    expect(texts(b)).toEqual(['Zeta', 'Eta']);
  });

  it('is one undo step of the restorer, which keeps what the other writer typed', () => {
    const { a, b } = pair(docOf('Alpha', 'Beta', 'Gamma'));
    const undoManager = a.storage.inkwellCollaboration.undoManager!;
    typeAtEnd(a, 0, '!');
    const before = undoManager.undoStack.length;
    restoreVersion(a, version(docOf('One', 'Two')));
    typeAtEnd(a, 1, '?');
    expect(undoManager.undoStack).toHaveLength(before + 2);
    typeAtEnd(b, 1, ' theirs');
    expect(texts(b)).toEqual(['One', 'Two? theirs']);
    a.commands.undo();
    expect(texts(a)).toEqual(['One', 'Two theirs']);
    a.commands.undo();
    expect(texts(a)).toEqual(['Alpha!', 'Beta theirs', 'Gamma']);
    expect(texts(b)).toEqual(texts(a));
  });

  it('restores lists and tables in place, each block once', () => {
    const cell = (text: string): JSONContent => ({ type: 'tableCell', content: [para(text)] });
    const table = (text: string): JSONContent => ({
      type: 'table',
      content: [{ type: 'tableRow', content: [cell(text), cell('b')] }],
    });
    const list = (...items: string[]): JSONContent => ({
      type: 'bulletList',
      content: items.map((item) => ({ type: 'listItem', content: [para(item)] })),
    });
    const { a, b, docs } = pair({ type: 'doc', content: [list('one', 'two'), table('now')] });
    const then = { type: 'doc', content: [list('one'), table('then'), para('End')] };
    restoreVersion(a, version(then));
    const want = version(then).toJSON();
    for (const editor of [a, b]) expect(unchunked(editor.state.doc).toJSON()).toEqual(want);
    expect(docs[1]!.getXmlFragment(FRAGMENT).length).toBe(3);
  });

  it('changes nothing when the document already is the version', () => {
    const { a, docs, net } = pair(docOf('Alpha', 'Beta'));
    expect(restoreVersion(a, version(docOf('Alpha', 'Beta')))).toBe(true);
    expect(net.sent.get(docs[0]!)).toHaveLength(0);
  });

  it('refuses on a read-only editor', () => {
    const { a, b } = pair(docOf('Alpha'));
    a.setEditable(false);
    expect(restoreVersion(a, version(docOf('Other')))).toBe(false);
    expect(texts(a)).toEqual(['Alpha']);
    expect(texts(b)).toEqual(['Alpha']);
  });
});
