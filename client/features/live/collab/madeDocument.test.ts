// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { blocksOf, unchunked } from '../../editor/chunks/chunks.ts';
import {
  buildNewDocument,
  buildNewDocumentInSlices,
  stateOf,
  stateOffThread,
  yDocOfNewDocument,
} from './newDocumentState.ts';
import { stateFromUpdates } from './stateFromUpdates.ts';
import { FRAGMENT, collabEditor, network, sharedDoc } from './test/testEditors.ts';

/*
 * A document made in this tab (an import) is drawn from the codec's document at once; its Y.Doc
 * is built from what the editor shows once the page is quiet (madeFrom.ts,
 * ChunkedYBinding.buildFragment), and the editor must then behave exactly as one that read it.
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
  it('is drawn from the codec document, nothing built or read', () => {
    const content = parseMarkdown(MARKDOWN);
    const doc = yDocOfNewDocument(content);
    const read = vi.spyOn(Y.XmlText.prototype, 'toDelta');
    const editor = open(doc);
    expect(read).not.toHaveBeenCalled();
    expect(doc.getXmlFragment(FRAGMENT).length).toBe(0);
    expect(unchunked(editor.state.doc).toJSON()).toEqual(content.toJSON());
  });

  it('builds the fragment from what the editor shows, edits typed before included', () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    typeAt(editor, 1, 'Early ');
    const shown = editor.state.doc;
    buildNewDocument(made);
    // Nothing is drawn again: the editor's document is the one it showed.
    expect(editor.state.doc).toBe(shown);
    expect(blocksOf(shown)[1]?.textContent).toMatch(/^Early /);
    // As the server would build it from that content.
    expect(shared(made)).toEqual(shared(sharedDoc(unchunked(shown).toJSON())));
    // Built once: asking again writes nothing.
    const before = Y.encodeStateVector(made);
    buildNewDocument(made);
    expect(Y.encodeStateVector(made)).toEqual(before);
  });

  it('sends the built state with the create, built first if the page was not quiet yet', () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    typeAt(editor, 2, 'Typed ');
    const received = new Y.Doc();
    Y.applyUpdate(received, Buffer.from(stateOf(made), 'base64'));
    expect(shared(received)).toEqual(shared(sharedDoc(unchunked(editor.state.doc).toJSON())));
  });

  it('is sent merged from the updates it emitted, built in slices, typing before, during and after included', async () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    typeAt(editor, 2, 'Before ');
    const building = buildNewDocumentInSlices(made);
    typeAt(editor, 3, 'During ');
    await building;
    typeAt(editor, 1, 'After ');
    // The worker's merge, on this thread.
    const merged: Uint8Array[][] = [];
    const state = await stateOffThread(
      made,
      async (updates) => {
        merged.push(updates);
        return stateFromUpdates(updates);
      },
      0,
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]!.length).toBeGreaterThan(1);
    const received = new Y.Doc();
    Y.applyUpdate(received, Buffer.from(state, 'base64'));
    expect(Y.encodeStateVector(received)).toEqual(Y.encodeStateVector(made));
    expect(shared(received)).toEqual(shared(sharedDoc(unchunked(editor.state.doc).toJSON())));
    expect(blocksOf(editor.state.doc)[1]?.textContent).toMatch(/^After /);
  });

  it('is encoded here when the merge fails, and as it is when read: later typing is not in it', async () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    await buildNewDocumentInSlices(made);
    const state = await stateOffThread(made, () => Promise.reject(new Error('no worker')), 0);
    typeAt(editor, 2, 'Later ');
    const received = new Y.Doc();
    Y.applyUpdate(received, Buffer.from(state, 'base64'));
    expect(shared(received)).not.toEqual(shared(made));
    // Read once: a second read has nothing recorded and encodes the document as it is now.
    const again = new Y.Doc();
    Y.applyUpdate(again, Buffer.from(await stateOffThread(made), 'base64'));
    expect(shared(again)).toEqual(shared(made));
  });

  it('is encoded here when it is small, without starting a worker', async () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    open(made);
    await buildNewDocumentInSlices(made);
    const merge = vi.fn(() => Promise.reject(new Error('not for a small state')));
    const received = new Y.Doc();
    Y.applyUpdate(received, Buffer.from(await stateOffThread(made, merge), 'base64'));
    expect(merge).not.toHaveBeenCalled();
    expect(shared(received)).toEqual(shared(made));
  });

  it('is read from the fragment when it was built before its editor opened', () => {
    const content = parseMarkdown(MARKDOWN);
    const made = yDocOfNewDocument(content);
    buildNewDocument(made);
    const editor = open(made);
    expect(unchunked(editor.state.doc).toJSON()).toEqual(content.toJSON());
  });

  it('writes local edits and shows remote ones, once built, as an editor that read it does', () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const mine = open(made);
    buildNewDocument(made);
    const other = replicaOf(made);
    const readBack = replicaOf(made);
    const readBackOther = replicaOf(made);
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
    // Each block edited in place (the build mapped every element to its block).
    expect(made.getXmlFragment(FRAGMENT).length).toBe(readBack.getXmlFragment(FRAGMENT).length);
  });

  it('undoes only this writer’s edits, never the build', () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const mine = open(made);
    buildNewDocument(made);
    const other = replicaOf(made);
    const theirs = open(other);
    network([made, other]);
    mine.storage.inkwellCollaboration.undoManager?.stopCapturing();
    typeAt(mine, 1, 'Mine ');
    typeAt(theirs, 1, 'Theirs ');
    mine.commands.undo();
    mine.commands.undo();
    const text = blocksOf(mine.state.doc)[1]?.textContent ?? '';
    expect(text).not.toContain('Mine');
    expect(text).toContain('Theirs');
    expect(blocksOf(mine.state.doc)).toHaveLength(blocksOf(theirs.state.doc).length);
    expect(blocksOf(mine.state.doc)[0]?.textContent).toBe('Title with bold and code');
    expect(unchunked(theirs.state.doc).toJSON()).toEqual(unchunked(mine.state.doc).toJSON());
  });

  it('is built from the first editor, typing included, when a second editor is made on it', () => {
    const made = yDocOfNewDocument(parseMarkdown('First\n\nSecond\n'));
    const first = open(made);
    typeAt(first, 1, 'Typed ');
    first.destroy();
    // As when the page makes its editor again (read-only after a refused create, say).
    const second = open(made);
    expect(blocksOf(second.state.doc).map((block) => block.textContent)).toEqual([
      'First',
      'Typed Second',
    ]);
    expect(shared(made)).toEqual(shared(sharedDoc(unchunked(second.state.doc).toJSON())));
  });

  it('builds from the last document shown when its editor closed first', () => {
    const made = yDocOfNewDocument(parseMarkdown('First\n\nSecond\n'));
    const editor = open(made);
    typeAt(editor, 1, 'Last ');
    editor.destroy();
    buildNewDocument(made);
    const reader = open(replicaOf(made));
    expect(blocksOf(reader.state.doc).map((block) => block.textContent)).toEqual([
      'First',
      'Last Second',
    ]);
  });

  it('is built in slices a task apart, typing meanwhile written once it is built', async () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    const transactions = vi.fn();
    made.on('afterTransaction', transactions);
    // Slices of one batch each (a large import's take about 8 ms each).
    const building = editor.storage.inkwellCollaboration.binding!.buildInSlices(0);
    // The first slice is written at once, the rest a task apart: the page takes keys between.
    expect(made.getXmlFragment(FRAGMENT).length).toBeGreaterThan(0);
    expect(made.getXmlFragment(FRAGMENT).length).toBeLessThan(blocksOf(editor.state.doc).length);
    await new Promise((resolve) => setTimeout(resolve, 0));
    typeAt(editor, 0, 'Early ');
    const blocks = blocksOf(editor.state.doc).length;
    let textblocks = 0;
    editor.state.doc.descendants((node) => {
      if (node.isTextblock) textblocks++;
    });
    // Into the last block, which the slices have not reached yet.
    typeAt(editor, textblocks - 1, 'Late ');
    expect(made.getXmlFragment(FRAGMENT).length).toBeLessThan(blocks);
    await building;
    expect(transactions.mock.calls.length).toBeGreaterThan(2);
    expect(blocksOf(editor.state.doc)[0]?.textContent).toMatch(/^Early /);
    expect(blocksOf(editor.state.doc)[blocks - 1]?.textContent).toMatch(/^Late /);
    // As the server would build it from what the editor shows, both edits included.
    expect(shared(made)).toEqual(shared(sharedDoc(unchunked(editor.state.doc).toJSON())));
    // The build is not an edit to take back, and neither is what it wrote at the end.
    editor.storage.inkwellCollaboration.undoManager?.stopCapturing();
    typeAt(editor, 1, 'Mine ');
    editor.commands.undo();
    expect(blocksOf(editor.state.doc)[1]?.textContent).not.toMatch(/^Mine /);
    expect(blocksOf(editor.state.doc)[0]?.textContent).toMatch(/^Early /);
    expect(blocksOf(editor.state.doc)).toHaveLength(blocks);
  });

  it('finishes a build under way at once when its state is read', async () => {
    const made = yDocOfNewDocument(parseMarkdown(MARKDOWN));
    const editor = open(made);
    const building = buildNewDocumentInSlices(made);
    typeAt(editor, 2, 'Typed ');
    const received = new Y.Doc();
    Y.applyUpdate(received, Buffer.from(stateOf(made), 'base64'));
    expect(shared(received)).toEqual(shared(sharedDoc(unchunked(editor.state.doc).toJSON())));
    await building;
    // Nothing written twice by the slices still scheduled.
    expect(shared(made)).toEqual(shared(received));
  });
});
