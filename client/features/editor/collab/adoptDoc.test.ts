// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { blocksOf, unchunked } from '../chunks/chunks.ts';
import { ChunkedYBinding } from './ChunkedYBinding.ts';
import { yDocOfNewDocument } from './newDocumentState.ts';
import { FRAGMENT, collabEditor, network } from './test/testEditors.ts';

/*
 * A document made in this tab (an import) has its Y.Doc built from the codec's document
 * (newDocumentState.ts); its editor takes that document as it is instead of reading the
 * fragment back (ChunkedYBinding.adoptDoc), and must then behave exactly as after initialDoc.
 */

const MARKDOWN = [
  '# Title with **bold** and `code`',
  '',
  'A paragraph with *emphasis*, a [link](https://example.com) and ~~strike~~.',
  '',
  '[![badge](https://example.com/badge.svg)](https://example.com/ci) and **[[Some note]]**',
  '',
  '- one',
  '  - nested **two**',
  '- three',
  '',
  '1. first',
  '2. second',
  '',
  '> quoted *text*',
  '',
  '```ts',
  'const x = 1;',
  '```',
  '',
  '| a | b |',
  '| - | - |',
  '| 1 | **2** |',
  '',
  'Text with a footnote[^1] and $x^2$ math.',
  '',
  '[^1]: The note.',
  '',
  '---',
  '',
  ...Array.from({ length: 150 }, (_, i) => `Paragraph ${i} with **bold ${i}** text.\n`),
].join('\n');

const opened: Editor[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const editor of opened.splice(0)) editor.destroy();
});

function open(doc: Y.Doc): Editor {
  const editor = collabEditor(doc);
  opened.push(editor);
  return editor;
}

/** A Y.Doc holding `content` as another writer loads it from the server (no adoption). */
function replicaOf(doc: Y.Doc): Y.Doc {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  return copy;
}

function shared(doc: Y.Doc): unknown {
  return yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(FRAGMENT));
}

function typeAt(editor: Editor, block: number, text: string): void {
  let pos = -1;
  let index = 0;
  editor.state.doc.descendants((node, at) => {
    if (pos >= 0) return false;
    if (!node.isTextblock) return true;
    if (index++ === block) pos = at + 1;
    return false;
  });
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, pos)));
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

describe('the editor on a document made in this tab', () => {
  it('takes the codec document without reading the fragment back', () => {
    const content = parseMarkdown(MARKDOWN);
    const doc = yDocOfNewDocument(content);
    const read = vi.spyOn(Y.XmlText.prototype, 'toDelta');
    const editor = open(doc);
    expect(read).not.toHaveBeenCalled();
    expect(unchunked(editor.state.doc).toJSON()).toEqual(content.toJSON());
  });

  it('opens with the very document initialDoc would build, every Y type mapped alike', () => {
    const content = parseMarkdown(MARKDOWN);
    const fragment = yDocOfNewDocument(content).getXmlFragment(FRAGMENT);
    const schema = open(new Y.Doc()).schema;
    const read = new ChunkedYBinding(fragment);
    const built = read.initialDoc(schema);
    const taken = new ChunkedYBinding(fragment);
    const adopted = taken.adoptDoc(content, schema);
    expect(adopted).not.toBeNull();
    expect(adopted!.eq(built)).toBe(true);
    expect([...taken.meta.mapping.keys()]).toEqual([...read.meta.mapping.keys()]);
    for (const [y, node] of read.meta.mapping) {
      const mine = taken.meta.mapping.get(y);
      const asList = (n: ProseMirrorNode | ProseMirrorNode[] | undefined) =>
        (Array.isArray(n) ? n : n ? [n] : []).map((one) => one.toJSON() as unknown);
      expect(asList(mine)).toEqual(asList(node));
    }
  });

  it('writes local edits and shows remote ones as an editor that read the fragment does', () => {
    const content = parseMarkdown(MARKDOWN);
    const made = yDocOfNewDocument(content);
    const other = replicaOf(made);
    const readBack = replicaOf(made);
    const readBackOther = replicaOf(made);
    const mine = open(made);
    const theirs = open(other);
    const control = open(readBack);
    const controlOther = open(readBackOther);
    network([made, other]);
    network([readBack, readBackOther]);
    for (const [a, b] of [
      [mine, theirs],
      [control, controlOther],
    ] as const) {
      typeAt(a, 1, 'Mine ');
      typeAt(b, 3, 'Theirs ');
      typeAt(a, 4, 'x');
    }
    expect(shared(made)).toEqual(shared(readBack));
    expect(unchunked(mine.state.doc).toJSON()).toEqual(unchunked(control.state.doc).toJSON());
    expect(unchunked(theirs.state.doc).toJSON()).toEqual(unchunked(mine.state.doc).toJSON());
    expect(blocksOf(mine.state.doc)[1]?.textContent).toMatch(/^Mine /);
    expect(blocksOf(mine.state.doc)[3]?.textContent).toMatch(/^Theirs /);
    // The same element, its text changed in place (the mapping named the adopted blocks).
    const fragment = made.getXmlFragment(FRAGMENT);
    expect(fragment.length).toBe(readBack.getXmlFragment(FRAGMENT).length);
  });

  it('undoes only this writer’s edits after adopting', () => {
    const content = parseMarkdown(MARKDOWN);
    const made = yDocOfNewDocument(content);
    const other = replicaOf(made);
    const mine = open(made);
    const theirs = open(other);
    network([made, other]);
    mine.storage.inkwellCollaboration.undoManager?.stopCapturing();
    typeAt(mine, 1, 'Mine ');
    typeAt(theirs, 1, 'Theirs ');
    mine.commands.undo();
    const text = blocksOf(mine.state.doc)[1]?.textContent ?? '';
    expect(text).not.toContain('Mine');
    expect(text).toContain('Theirs');
    expect(unchunked(theirs.state.doc).toJSON()).toEqual(unchunked(mine.state.doc).toJSON());
  });

  it('reads the fragment when it changed after it was built', () => {
    const content = parseMarkdown('First\n\nSecond\n');
    const made = yDocOfNewDocument(content);
    const other = replicaOf(made);
    const paragraph = new Y.XmlElement('paragraph');
    other.getXmlFragment(FRAGMENT).insert(2, [paragraph]);
    paragraph.insert(0, [new Y.XmlText('Third')]);
    Y.applyUpdate(made, Y.encodeStateAsUpdate(other));
    const editor = open(made);
    expect(blocksOf(editor.state.doc).map((block) => block.textContent)).toEqual([
      'First',
      'Second',
      'Third',
    ]);
  });

  it('reads the fragment when text was only deleted after it was built', () => {
    const content = parseMarkdown('First\n\nSecond\n');
    const made = yDocOfNewDocument(content);
    const other = replicaOf(made);
    // A delete makes no new item: the Y.Doc's state vector stays as it was.
    const second = other.getXmlFragment(FRAGMENT).get(1) as Y.XmlElement;
    (second.get(0) as Y.XmlText).delete(0, 3);
    Y.applyUpdate(made, Y.encodeStateAsUpdate(other));
    const editor = open(made);
    expect(blocksOf(editor.state.doc).map((block) => block.textContent)).toEqual(['First', 'ond']);
  });

  it('refuses a document of another shape than the fragment', () => {
    const fragment = yDocOfNewDocument(parseMarkdown('One\n\nTwo\n')).getXmlFragment(FRAGMENT);
    const schema = open(new Y.Doc()).schema;
    const binding = new ChunkedYBinding(fragment);
    expect(binding.adoptDoc(parseMarkdown('One\n'), schema)).toBeNull();
    expect(binding.adoptDoc(parseMarkdown('# One\n\nTwo\n'), schema)).toBeNull();
    expect(binding.adoptDoc(parseMarkdown('One\n\n- Two\n'), schema)).toBeNull();
    expect(binding.meta.mapping.size).toBe(0);
  });
});
