// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { UndoRedo } from '@tiptap/extensions';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { serializeMarkdown } from '../../../../common/editor/markdown/serializeMarkdown.ts';
import { editorExtensions } from '../editorExtensions.ts';
import { loadHtmlSanitizer } from '../nodeViews/htmlSanitizer.ts';
import { openIn } from '../openIn.ts';
import { compactJson } from '../../../../common/editor/compactJson.ts';
import { serializeDoc } from '../../live/persistence/serializeDoc.ts';
import {
  CHUNK_SIZE,
  MAX_CHUNK,
  blocksOf,
  changedContent,
  forEachBlock,
  isChunk,
  unchunked,
} from './chunks.ts';

const shared = inkwellSchema();

function paragraphs(count: number, text = (i: number) => `Paragraph ${i}`): ProseMirrorNode {
  return shared.nodeFromJSON({
    type: 'doc',
    content: Array.from({ length: count }, (_, i) => {
      const words = text(i);
      return { type: 'paragraph', content: words ? [{ type: 'text', text: words }] : [] };
    }),
  });
}

function press(editor: Editor, key: string, init: KeyboardEventInit = {}): void {
  editor.view.dom.dispatchEvent(
    new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }),
  );
}

/** Start of the text of top-level block `index`. */
function textStart(doc: ProseMirrorNode, index: number): number {
  let found = -1;
  forEachBlock(doc, (_block, pos, i) => {
    if (i === index) found = pos + 1;
  });
  if (found < 0) throw new Error(`no block ${index}`);
  return found;
}

function chunkSizes(doc: ProseMirrorNode): number[] {
  const sizes: number[] = [];
  doc.forEach((chunk) => sizes.push(chunk.childCount));
  return sizes;
}

/** The chunk index and the index in it of the block holding `pos`. */
function placeOf(doc: ProseMirrorNode, pos: number): [number, number] {
  const $pos = doc.resolve(pos);
  return [$pos.index(0), $pos.index(1)];
}

afterAll(() => loadHtmlSanitizer());

describe('the editor keeps top-level blocks in chunks', () => {
  let opened: Editor | undefined;
  const open = (doc: ProseMirrorNode): Editor => {
    const noop = () => undefined;
    const editor = new Editor({
      element: document.createElement('div'),
      extensions: editorExtensions({
        markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
        undoRedo: UndoRedo,
      }),
    });
    opened = editor;
    openIn(editor, doc);
    return editor;
  };
  const select = (editor: Editor, from: number, to = from) =>
    editor.view.dispatch(
      editor.state.tr.setSelection(TextSelection.create(editor.state.doc, from, to)),
    );
  afterEach(() => opened?.destroy());

  it('opens a document in chunks, and saves and exports it as it came', () => {
    const doc = paragraphs(300);
    const editor = open(doc);
    const sizes = chunkSizes(editor.state.doc);
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_CHUNK);
    expect(editor.state.doc.childCount).toBeLessThan(300 / CHUNK_SIZE + 2);
    editor.state.doc.forEach((chunk) => expect(isChunk(chunk)).toBe(true));
    expect(serializeDoc(editor.state.doc)).toBe(JSON.stringify(compactJson(doc)));
    expect(serializeMarkdown(unchunked(editor.state.doc))).toBe(serializeMarkdown(doc));
  });

  it('joins a line with the one before when Backspace is pressed at a chunk’s first line', () => {
    const editor = open(paragraphs(200));
    const sizes = chunkSizes(editor.state.doc);
    const first = sizes[0] ?? 0;
    // The first line of the second chunk.
    select(editor, textStart(editor.state.doc, first));
    press(editor, 'Backspace');
    const blocks = blocksOf(editor.state.doc);
    expect(blocks).toHaveLength(199);
    expect(blocks[first - 1]?.textContent).toBe(`Paragraph ${first - 1}Paragraph ${first}`);
    // Undone, the document is the one opened.
    editor.commands.undo();
    expect(serializeDoc(editor.state.doc)).toBe(JSON.stringify(compactJson(paragraphs(200))));
  });

  it('joins a chunk’s last line with the next one on Delete at its end', () => {
    const editor = open(paragraphs(200));
    const last = (chunkSizes(editor.state.doc)[0] ?? 0) - 1;
    select(editor, textStart(editor.state.doc, last) + `Paragraph ${last}`.length);
    press(editor, 'Delete');
    const blocks = blocksOf(editor.state.doc);
    expect(blocks).toHaveLength(199);
    expect(blocks[last]?.textContent).toBe(`Paragraph ${last}Paragraph ${last + 1}`);
  });

  it('wraps lines selected across chunks in one list', () => {
    const editor = open(paragraphs(200));
    const first = chunkSizes(editor.state.doc)[0] ?? 0;
    select(editor, textStart(editor.state.doc, first - 2), textStart(editor.state.doc, first + 2));
    expect(editor.commands.toggleBulletList()).toBe(true);
    const blocks = blocksOf(editor.state.doc);
    const list = blocks[first - 2];
    expect(list?.type.name).toBe('bulletList');
    expect(list?.childCount).toBe(5);
    expect(blocks).toHaveLength(196);
  });

  it('keeps the selected lines away from a chunk’s edges', () => {
    const editor = open(paragraphs(200));
    const doc = editor.state.doc;
    for (const index of [0, 63, 64, 65, 127, 128, 199]) {
      select(editor, textStart(editor.state.doc, index));
      const [chunk, at] = placeOf(editor.state.doc, editor.state.selection.from);
      const size = editor.state.doc.child(chunk).childCount;
      if (chunk > 0) expect(at, `block ${index}`).toBeGreaterThan(0);
      if (chunk < editor.state.doc.childCount - 1)
        expect(at, `block ${index}`).toBeLessThan(size - 1);
    }
    // Moving the selection around changed where the chunks are, never the document.
    expect(serializeDoc(editor.state.doc)).toBe(serializeDoc(doc));
  });

  it('reports gathering chunks around the cursor as no change of content', () => {
    const editor = open(paragraphs(200));
    const updates: boolean[] = [];
    editor.on('update', (update) => updates.push(changedContent(update)));
    const chunksBefore = editor.state.doc.childCount;
    select(editor, textStart(editor.state.doc, chunkSizes(editor.state.doc)[0] ?? 0));
    expect(editor.state.doc.childCount).toBe(chunksBefore - 1);
    expect(updates).toEqual([false]);
    editor.commands.insertContent('x');
    expect(updates).toEqual([false, true]);
  });

  it('splits a chunk that grows past its limit, away from the cursor', () => {
    const editor = open(paragraphs(10));
    select(editor, textStart(editor.state.doc, 5));
    for (let i = 0; i < 3 * MAX_CHUNK; i++) press(editor, 'Enter');
    const sizes = chunkSizes(editor.state.doc);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10 + 3 * MAX_CHUNK);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_CHUNK);
    const [chunk, at] = placeOf(editor.state.doc, editor.state.selection.from);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan((editor.state.doc.child(chunk).childCount ?? 0) - 1);
  });

  it('starts a chunk only with a block that has no space above it', () => {
    const doc = shared.nodeFromJSON({
      type: 'doc',
      content: Array.from({ length: 400 }, (_, i) =>
        i % 3 === 0
          ? { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: `H${i}` }] }
          : { type: 'paragraph', content: [{ type: 'text', text: `P${i}` }] },
      ),
    });
    const editor = open(doc);
    editor.state.doc.forEach((chunk, _offset, index) => {
      if (index > 0) expect(chunk.firstChild?.type.name).toBe('paragraph');
    });
  });

  it('replaces everything when all is selected and a key is typed', () => {
    const editor = open(paragraphs(300));
    press(editor, 'a', { ctrlKey: true });
    editor.commands.insertContent('new');
    expect(blocksOf(editor.state.doc).map((block) => block.textContent)).toEqual(['new']);
    expect(editor.state.doc.childCount).toBe(1);
  });

  it('wraps a whole document of several chunks in a list when all is selected', () => {
    const editor = open(paragraphs(300));
    press(editor, 'a', { ctrlKey: true });
    expect(
      editor.state.doc.textBetween(editor.state.selection.from, editor.state.selection.to),
    ).toBe(paragraphs(300).textBetween(0, paragraphs(300).content.size));
    expect(editor.commands.toggleBulletList()).toBe(true);
    const blocks = blocksOf(editor.state.doc);
    expect(blocks[0]?.type.name).toBe('bulletList');
    expect(blocks[0]?.childCount).toBe(300);
  });

  it('selects the whole document, images included, when it does not start with text', () => {
    const doc = shared.nodeFromJSON({
      type: 'doc',
      content: [
        { type: 'image', attrs: { src: 'https://example.com/a.png' } },
        { type: 'paragraph', content: [{ type: 'text', text: 'after' }] },
      ],
    });
    const editor = open(doc);
    press(editor, 'a', { ctrlKey: true });
    expect(editor.state.selection.from).toBe(0);
    expect(editor.state.selection.to).toBe(editor.state.doc.content.size);
  });

  it('keeps an empty line at the end to type into', () => {
    const editor = open(
      shared.nodeFromJSON({
        type: 'doc',
        content: [{ type: 'codeBlock', content: [{ type: 'text', text: 'x' }] }],
      }),
    );
    select(editor, 2);
    editor.commands.insertContent('y');
    const blocks = blocksOf(editor.state.doc);
    expect(blocks.map((block) => block.type.name)).toEqual(['codeBlock', 'paragraph']);
  });

  it('shows the placeholder of the empty line holding the cursor', () => {
    const editor = open(paragraphs(3, (i) => (i === 1 ? '' : `P${i}`)));
    select(editor, textStart(editor.state.doc, 1));
    const empty = editor.view.dom.querySelector('.is-empty');
    expect(empty?.getAttribute('data-placeholder')).toBe("Type '/' for commands…");
    expect(editor.view.dom.querySelectorAll('.is-empty')).toHaveLength(1);
  });
});
