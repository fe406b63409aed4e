// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { yDocToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import {
  CHUNK_SIZE,
  blocksOf,
  forEachBlock,
  isChunk,
  unchunked,
} from '../../editor/chunks/chunks.ts';
import { isRemoteChange } from './ChunkedYBinding.ts';
import {
  FRAGMENT,
  collabEditor,
  network,
  paragraphsJson,
  replicas,
  sharedDoc,
} from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

function open(doc: Y.Doc, onRepair?: (problem: string) => void): Editor {
  const editor = collabEditor(doc, onRepair);
  opened.push(editor);
  return editor;
}

/** The editor's document as the rest of Inkwell (and the server) knows it. */
function shown(editor: Editor): unknown {
  return unchunked(editor.state.doc).toJSON();
}

const schema = inkwellSchema();

/** The shared document's content, through the schema (which fills in attributes left at null). */
function shared(doc: Y.Doc): unknown {
  return schema.nodeFromJSON(yDocToProsemirrorJSON(doc, FRAGMENT)).toJSON();
}

/** Start of the text of top-level block `index`. */
function textStart(editor: Editor, index: number): number {
  let found = -1;
  forEachBlock(editor.state.doc, (_block, pos, i) => {
    if (i === index) found = pos + 1;
  });
  if (found < 0) throw new Error(`no block ${index}`);
  return found;
}

function caret(editor: Editor, pos: number): void {
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, pos)));
}

function typeAt(editor: Editor, pos: number, text: string): void {
  caret(editor, pos);
  for (const char of text) editor.view.dispatch(editor.state.tr.insertText(char));
}

function blockText(editor: Editor, index: number): string {
  return blocksOf(editor.state.doc)[index]?.textContent ?? '';
}

describe('an editor on a shared document', () => {
  it('opens with the shared content in chunks', () => {
    const [doc] = replicas(paragraphsJson(200), 1);
    const editor = open(doc!);
    expect(editor.state.doc.childCount).toBeGreaterThan(1);
    editor.state.doc.forEach((chunk) => expect(isChunk(chunk)).toBe(true));
    expect(shown(editor)).toEqual(shared(doc!));
  });

  it('writes typing as a text insert in that paragraph, not a new block', () => {
    const [doc] = replicas(paragraphsJson(3), 1);
    const editor = open(doc!);
    const paragraph = doc!.getXmlFragment(FRAGMENT).get(1) as Y.XmlElement;
    typeAt(editor, textStart(editor, 1) + 4, 'X');
    // The same Y element, its text changed in place.
    expect(doc!.getXmlFragment(FRAGMENT).get(1)).toBe(paragraph);
    expect((paragraph.get(0) as Y.XmlText).toString()).toBe('ParaXgraph 1');
    expect(shown(editor)).toEqual(shared(doc!));
  });

  it('converges with every character when two writers type in one paragraph at once', () => {
    const docs = replicas(paragraphsJson(300), 2);
    const [a, b] = docs.map((doc) => open(doc));
    const net = network(docs);
    net.hold();
    typeAt(a!, textStart(a!, 150) + 9, 'alpha');
    typeAt(b!, textStart(b!, 150) + 2, 'beta');
    net.flush();
    const text = blockText(a!, 150);
    expect(text).toBe(blockText(b!, 150));
    expect(text).toBe('Pabetaragraphalpha 150');
    expect(shown(a!)).toEqual(shown(b!));
    expect(shown(a!)).toEqual(shared(docs[0]!));
  });

  it('converges when three writers type across chunk edges at once', () => {
    const docs = replicas(paragraphsJson(400), 3);
    const editors = docs.map((doc) => open(doc));
    const net = network(docs);
    net.hold();
    editors.forEach((editor, i) =>
      typeAt(editor, textStart(editor, CHUNK_SIZE * (i + 1)), `w${i} `),
    );
    editors.forEach((editor, i) => typeAt(editor, textStart(editor, 10), `x${i}`));
    net.flush();
    for (const editor of editors) expect(shown(editor)).toEqual(shared(docs[0]!));
    for (let i = 0; i < 3; i++)
      expect(blockText(editors[0]!, CHUNK_SIZE * (i + 1))).toMatch(`w${i} `);
    expect(blockText(editors[0]!, 10)).toMatch(/x0/);
    expect(blockText(editors[0]!, 10)).toMatch(/x1/);
    expect(blockText(editors[0]!, 10)).toMatch(/x2/);
  });

  it('gathers and splits chunks without a single Y update', () => {
    const [doc] = replicas(paragraphsJson(500), 1);
    const editor = open(doc!);
    const updates: Uint8Array[] = [];
    doc!.on('update', (update: Uint8Array) => updates.push(update));
    const chunksBefore = editor.state.doc.childCount;
    // The caret at a chunk's first block gathers it with the chunk before.
    caret(editor, textStart(editor, CHUNK_SIZE * 3));
    expect(editor.state.doc.childCount).toBe(chunksBefore - 1);
    caret(editor, textStart(editor, 2));
    caret(editor, textStart(editor, 499));
    expect(updates).toHaveLength(0);
    expect(shown(editor)).toEqual(shared(doc!));
  });

  it('splits a chunk grown past its limit without writing anything but the paste', () => {
    const [doc] = replicas(paragraphsJson(100), 1);
    const editor = open(doc!);
    const fragment = doc!.getXmlFragment(FRAGMENT);
    const before = fragment.toArray();
    let events = 0;
    fragment.observe(() => events++);
    const paragraphs = Array.from({ length: 150 }, (_, i) => ({
      type: 'paragraph',
      content: [{ type: 'text', text: `New ${i}` }],
    }));
    editor.chain().setTextSelection(textStart(editor, 50)).insertContent(paragraphs).run();
    expect(events).toBe(1);
    // Every old block is still the same Y element.
    const after = fragment.toArray();
    for (const element of before) expect(after).toContain(element);
    expect(shown(editor)).toEqual(shared(doc!));
  });

  it('lands a remote insert of 1,000 blocks in chunks', () => {
    const docs = replicas(paragraphsJson(20), 2);
    const editor = open(docs[1]!);
    network(docs);
    let remote = 0;
    editor.on('transaction', ({ transaction }) => {
      if (isRemoteChange(transaction)) remote++;
    });
    const fragment = docs[0]!.getXmlFragment(FRAGMENT);
    const elements = Array.from({ length: 1000 }, (_, i) => {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(`Remote ${i}`)]);
      return paragraph;
    });
    fragment.insert(10, elements);
    expect(remote).toBe(1);
    expect(blocksOf(editor.state.doc)).toHaveLength(1020);
    editor.state.doc.forEach((chunk) => {
      expect(isChunk(chunk)).toBe(true);
      expect(chunk.childCount).toBeLessThanOrEqual(2 * CHUNK_SIZE);
    });
    expect(shown(editor)).toEqual(shared(docs[0]!));
  });

  it("replaces only the changed characters of a remote edit, inside that block's chunk", () => {
    const docs = replicas(paragraphsJson(300), 2);
    const editor = open(docs[1]!);
    network(docs);
    const steps: { from: number; to: number }[] = [];
    editor.on('transaction', ({ transaction }) => {
      if (!isRemoteChange(transaction)) return;
      transaction.steps.forEach((step) =>
        step.getMap().forEach((from, to) => steps.push({ from, to })),
      );
    });
    const paragraph = docs[0]!.getXmlFragment(FRAGMENT).get(200) as Y.XmlElement;
    (paragraph.get(0) as Y.XmlText).insert(4, 'Q');
    const at = textStart(editor, 200) + 4;
    expect(steps).toEqual([{ from: at, to: at }]);
    expect(blockText(editor, 200)).toBe('ParaQgraph 200');
  });

  it('applies remote deletes that empty whole chunks', () => {
    const docs = replicas(paragraphsJson(400), 2);
    const editor = open(docs[1]!);
    network(docs);
    docs[0]!.getXmlFragment(FRAGMENT).delete(30, 300);
    expect(blocksOf(editor.state.doc)).toHaveLength(100);
    expect(shown(editor)).toEqual(shared(docs[0]!));
    docs[0]!.getXmlFragment(FRAGMENT).delete(0, 100);
    expect(shown(editor)).toEqual(
      schema.nodeFromJSON({ type: 'doc', content: [{ type: 'paragraph' }] }).toJSON(),
    );
  });

  it('keeps the caret in place while someone else types before it in the same paragraph', () => {
    const docs = replicas(paragraphsJson(3), 2);
    const [a, b] = docs.map((doc) => open(doc));
    network(docs);
    const at = textStart(a!, 1) + 9; // "Paragraph| 1"
    caret(a!, at);
    typeAt(b!, textStart(b!, 1), 'New ');
    expect(a!.state.selection.from).toBe(at + 4);
  });

  it('writes nothing while read-only', () => {
    const [doc] = replicas(paragraphsJson(3), 1);
    const editor = open(doc!);
    editor.setEditable(false);
    const updates: Uint8Array[] = [];
    doc!.on('update', (update: Uint8Array) => updates.push(update));
    editor.commands.insertContentAt(textStart(editor, 0), 'local ');
    expect(updates).toHaveLength(0);
  });

  it("shows another writer's first block instead of its own unwritten empty paragraph", () => {
    const docs = [new Y.Doc(), new Y.Doc()];
    const [a, b] = docs.map((doc) => open(doc));
    network(docs);
    typeAt(a!, 2, 'First');
    // B opened the empty document too; its empty paragraph was never written, so it goes.
    expect(blocksOf(b!.state.doc).map((block) => block.textContent)).toEqual(['First']);
    expect(shown(b!)).toEqual(shared(docs[1]!));
    typeAt(b!, b!.state.doc.content.size - 2, ' and more');
    expect(blocksOf(a!.state.doc).map((block) => block.textContent)).toEqual(['First and more']);
    expect(docs[0]!.getXmlFragment(FRAGMENT).length).toBe(1);
  });

  it("keeps its own empty paragraph once typed into, beside the other writer's", () => {
    const docs = [new Y.Doc(), new Y.Doc()];
    const [a, b] = docs.map((doc) => open(doc));
    typeAt(b!, 2, 'Second');
    typeAt(a!, 2, 'First');
    network(docs);
    expect(shown(a!)).toEqual(shared(docs[0]!));
    expect(shown(b!)).toEqual(shared(docs[1]!));
    expect(docs[0]!.getXmlFragment(FRAGMENT).length).toBe(2);
  });

  it('leaves an empty shared document empty until someone types', () => {
    const doc = new Y.Doc();
    const editor = open(doc);
    expect(doc.getXmlFragment(FRAGMENT).length).toBe(0);
    typeAt(editor, 2, 'Hi');
    expect(shared(doc)).toEqual(shown(editor));
  });
});

describe('undo per writer', () => {
  it("undoes my typing and leaves the other writer's words", () => {
    const docs = replicas(paragraphsJson(5), 2);
    const [a, b] = docs.map((doc) => open(doc));
    network(docs);
    typeAt(a!, textStart(a!, 2) + 9, ' mine');
    typeAt(b!, textStart(b!, 2), 'theirs ');
    expect(blockText(a!, 2)).toBe('theirs Paragraph mine 2');
    a!.storage.inkwellCollaboration.undoManager?.undo();
    expect(blockText(a!, 2)).toBe('theirs Paragraph 2');
    expect(blockText(b!, 2)).toBe('theirs Paragraph 2');
    // The caret where the undone words were (either side of the space they shared).
    expect(a!.state.selection.from - textStart(a!, 2)).toBeGreaterThanOrEqual(16);
    expect(a!.state.selection.from - textStart(a!, 2)).toBeLessThanOrEqual(17);
    a!.storage.inkwellCollaboration.undoManager?.redo();
    expect(blockText(b!, 2)).toBe('theirs Paragraph mine 2');
    expect(shown(a!)).toEqual(shared(docs[1]!));
  });

  it('puts the caret where the undone change was, even after moving far away', () => {
    const docs = replicas(paragraphsJson(300), 2);
    const [a, b] = docs.map((doc) => open(doc));
    network(docs);
    typeAt(a!, textStart(a!, 2) + 9, ' mine');
    typeAt(b!, textStart(b!, 2), 'theirs ');
    caret(a!, textStart(a!, 250));
    a!.commands.undo();
    expect(blockText(a!, 2)).toBe('theirs Paragraph 2');
    const $caret = a!.state.selection.$from;
    expect($caret.parent.textContent).toBe('theirs Paragraph 2');
    expect($caret.parentOffset).toBeGreaterThanOrEqual(16);
    expect($caret.parentOffset).toBeLessThanOrEqual(17);
    // Redo: after the words it brings back.
    caret(a!, textStart(a!, 250));
    a!.commands.redo();
    expect(a!.state.selection.$from.parent.textContent).toBe('theirs Paragraph mine 2');
    expect(a!.state.selection.$from.parentOffset).toBeGreaterThanOrEqual(21);
  });

  it('binds Mod-Z to undo and keeps chunk upkeep out of the undo history', () => {
    const [doc] = replicas(paragraphsJson(300), 1);
    const editor = open(doc!);
    const undoManager = editor.storage.inkwellCollaboration.undoManager;
    caret(editor, textStart(editor, CHUNK_SIZE * 2));
    expect(undoManager?.undoStack).toHaveLength(0);
    typeAt(editor, textStart(editor, CHUNK_SIZE * 2), 'abc');
    expect(undoManager?.undoStack).toHaveLength(1);
    const press = (key: string, shiftKey = false) =>
      editor.view.dom.dispatchEvent(
        new KeyboardEvent('keydown', {
          key,
          keyCode: key.toUpperCase().charCodeAt(0),
          ctrlKey: true,
          shiftKey,
          bubbles: true,
          cancelable: true,
        }),
      );
    press('z');
    expect(blockText(editor, CHUNK_SIZE * 2)).toBe(`Paragraph ${CHUNK_SIZE * 2}`);
    press('Z', true);
    expect(blockText(editor, CHUNK_SIZE * 2)).toBe(`abcParagraph ${CHUNK_SIZE * 2}`);
    expect(editor.commands.undo()).toBe(true);
    expect(blockText(editor, CHUNK_SIZE * 2)).toBe(`Paragraph ${CHUNK_SIZE * 2}`);
    press('y');
    expect(blockText(editor, CHUNK_SIZE * 2)).toBe(`abcParagraph ${CHUNK_SIZE * 2}`);
    expect(editor.commands.redo()).toBe(false);
    press('z');
    expect(shown(editor)).toEqual(shared(doc!));
  });
});

describe('hostile remote content', () => {
  it('repairs an element the schema does not know, keeping its text', () => {
    const docs = replicas(paragraphsJson(3), 2);
    const problems: string[] = [];
    const editor = open(docs[1]!, (problem) => problems.push(problem));
    network(docs);
    const strange = new Y.XmlElement('marquee');
    strange.insert(0, [new Y.XmlText('keep these words')]);
    expect(() => docs[0]!.getXmlFragment(FRAGMENT).insert(1, [strange])).not.toThrow();
    expect(blockText(editor, 1)).toBe('keep these words');
    expect(problems.join()).toMatch(/marquee/);
    // Nothing deleted from the shared document behind the writer's back.
    expect(docs[0]!.getXmlFragment(FRAGMENT).length).toBe(4);
  });

  it('repairs a paragraph inside a text node, keeping every word', () => {
    const docs = replicas(paragraphsJson(3), 2);
    const editor = open(docs[1]!);
    network(docs);
    const paragraph = docs[0]!.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement;
    const text = paragraph.get(0) as Y.XmlText;
    const inner = new Y.XmlElement('paragraph');
    inner.insert(0, [new Y.XmlText('nested words')]);
    expect(() => text.insertEmbed(4, inner)).not.toThrow();
    expect(blockText(editor, 0)).toMatch(/Para/);
    expect(blockText(editor, 0)).toMatch(/nested words/);
    expect(blockText(editor, 0)).toMatch(/graph 0/);
    // Typing in the repaired block writes the repair, words kept.
    typeAt(editor, textStart(editor, 0), '!');
    expect(JSON.stringify(shared(docs[0]!))).toMatch(/nested words/);
    expect(shown(editor)).toEqual(shared(docs[0]!));
  });

  it('repairs text straight in the document, editor-only chunks and a nested doc, keeping the text', () => {
    const docs = replicas(paragraphsJson(2), 2);
    const problems: string[] = [];
    const editor = open(docs[1]!, (problem) => problems.push(problem));
    network(docs);
    const fragment = docs[0]!.getXmlFragment(FRAGMENT);
    const chunk = new Y.XmlElement('chunk');
    const inChunk = new Y.XmlElement('paragraph');
    inChunk.insert(0, [new Y.XmlText('in a chunk')]);
    chunk.insert(0, [inChunk]);
    const nested = new Y.XmlElement('doc');
    const heading = new Y.XmlElement('heading');
    heading.setAttribute('level', '2');
    heading.insert(0, [new Y.XmlText('in a doc')]);
    nested.insert(0, [heading]);
    expect(() => fragment.insert(1, [new Y.XmlText('bare text'), chunk, nested])).not.toThrow();
    const texts = blocksOf(editor.state.doc).map((block) => block.textContent);
    expect(texts).toEqual(['Paragraph 0', 'bare text', 'in a chunk', 'in a doc', 'Paragraph 1']);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join()).not.toMatch(/stopped/);
  });

  it('opens a document that holds an unknown element with its text', () => {
    const doc = sharedDoc(paragraphsJson(2));
    const strange = new Y.XmlElement('blink');
    strange.insert(0, [new Y.XmlText('still here')]);
    doc.getXmlFragment(FRAGMENT).insert(0, [strange]);
    const editor = open(doc);
    expect(blockText(editor, 0)).toBe('still here');
  });
});
