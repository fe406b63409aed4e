// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { Slice } from '@tiptap/pm/model';
import { findWrapping } from '@tiptap/pm/transform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_DEPTH } from '../../../common/api/limits.ts';
import { parseMarkdown } from '../../../common/editor/markdown/index.ts';
import { REMOTE_CHANGE } from '../live/collab/remoteChange.ts';
import { insertDocument } from './markdown/applyMarkdown.ts';
import { editorExtensions } from './editorExtensions.ts';
import { forEachBlock, isChunk } from './chunks/chunks.ts';
import { changedDepth } from './depthLimit.ts';

let editor: Editor;

afterEach(() => editor.destroy());

/** An editor as the app makes it (with chunks), holding `html`, and what it reports refused. */
function setUp(html = '<p>Before</p>') {
  const onRefused = vi.fn<(message: string) => void>();
  const markdown = {
    onMarkdownText: () => undefined,
    onMarkdownFile: () => undefined,
    onPasteHint: () => undefined,
  };
  editor = new Editor({ extensions: editorExtensions({ markdown, onRefused }), content: html });
  editor.commands.focus('end');
  return { onRefused, before: editor.getJSON() };
}

/** Pastes `html` as the browser would hand it over (jsdom has no ClipboardEvent). */
const paste = (html: string) => editor.view.pasteHTML(html, new Event('paste') as ClipboardEvent);

const quotes = (levels: number, inner = '<p>deep</p>') =>
  '<blockquote>'.repeat(levels) + inner + '</blockquote>'.repeat(levels);

describe('DepthLimit', () => {
  it('refuses pasted HTML nested 10,000 deep whole, before reading it, and says why', () => {
    const { onRefused, before } = setUp();
    expect(() => paste(quotes(10_000))).not.toThrow();
    expect(editor.getJSON()).toEqual(before);
    expect(onRefused.mock.calls).toEqual([
      ['What you pasted nests its HTML more than 512 elements deep; Inkwell reads at most 512.'],
    ]);
  });

  it('refuses pasted quotes nested past the limit whole, and says how deep', () => {
    const { onRefused, before } = setUp();
    paste(`<p>x</p>${quotes(300)}`);
    expect(editor.getJSON()).toEqual(before);
    expect(onRefused.mock.calls).toEqual([
      [
        'What you pasted would nest blocks 301 levels deep; Inkwell accepts at most 100 ' +
          '(each quote counts 1, each list level 2).',
      ],
    ]);
  });

  it('refuses a deeply nested drop before reading it', () => {
    const { onRefused } = setUp();
    const { view } = editor;
    const drop = () =>
      view.someProp('handleDrop', (f) =>
        f(view, new Event('drop') as DragEvent, Slice.empty, false),
      );
    // A drop reads its HTML as a paste does, through every transformPastedHTML in turn.
    let html = quotes(1_000);
    view.someProp('transformPastedHTML', (f) => {
      html = f(html, view);
    });
    expect(html).toBe('');
    expect(drop()).toBe(true);
    expect(onRefused).toHaveBeenCalledTimes(1);
    // The refusal is answered once; the next drop is read as usual.
    expect(drop()).toBeFalsy();
  });

  it('takes a paste that reaches the limit exactly', () => {
    const { onRefused } = setUp();
    // Quotes and the paragraph in them: MAX_DEPTH levels.
    paste(`<p>x</p>${quotes(MAX_DEPTH - 1)}`);
    expect(onRefused).not.toHaveBeenCalled();
    expect(editor.getText()).toContain('deep');
  });

  it('counts the levels the paste lands in', () => {
    const { onRefused, before } = setUp(quotes(60, '<p>inside</p>'));
    paste(`<p>x</p>${quotes(50)}`);
    expect(editor.getJSON()).toEqual(before);
    expect(onRefused.mock.calls[0]![0]).toMatch(/would nest blocks 111 levels deep/);
  });

  it('refuses Markdown pasted where it would nest too deeply', () => {
    const { onRefused, before } = setUp(quotes(60, '<p>inside</p>'));
    insertDocument(editor, parseMarkdown(`x\n\n${'>'.repeat(50)} deep\n`, editor.schema));
    expect(editor.getJSON()).toEqual(before);
    expect(onRefused.mock.calls[0]![0]).toMatch(/would nest blocks 111 levels deep/);
  });

  it('refuses an edit of the writer’s that would nest past the limit, and says why', () => {
    // Made by hand, such a document was refused by the server at its next save; live, the
    // refused update would set the device's unsaved edits aside.
    const { onRefused, before } = setUp(quotes(MAX_DEPTH - 1, '<p>inside</p>'));
    editor.commands.wrapIn('blockquote');
    expect(editor.getJSON()).toEqual(before);
    expect(onRefused.mock.calls).toEqual([
      [
        'That change would nest blocks 101 levels deep; Inkwell accepts at most 100 ' +
          '(each quote counts 1, each list level 2).',
      ],
    ]);
  });

  it('lets the writer split and join blocks at the limit', () => {
    const { onRefused } = setUp(quotes(MAX_DEPTH - 1, '<p>inside</p>'));
    editor.commands.splitBlock();
    editor.commands.insertContent('next');
    expect(editor.getText().split(/\n+/).filter(Boolean)).toEqual(['inside', 'next']);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('applies a change from the shared document whatever its depth: the server checked it', () => {
    const { onRefused } = setUp(quotes(MAX_DEPTH - 1, '<p>inside</p>'));
    const { state } = editor;
    const range = state.selection.$from.blockRange(state.selection.$to)!;
    const wrapping = findWrapping(range, editor.schema.nodes.blockquote!)!;
    editor.view.dispatch(state.tr.wrap(range, wrapping).setMeta(REMOTE_CHANGE, true));
    expect(JSON.stringify(editor.getJSON()).split('"blockquote"').length - 1).toBe(MAX_DEPTH);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('leaves typing alone', () => {
    const { onRefused } = setUp(quotes(MAX_DEPTH - 1, '<p>inside</p>'));
    editor.commands.insertContent('more');
    expect(editor.getText()).toContain('insidemore');
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('measures the blocks a change touches in a long document, whichever chunk holds them', () => {
    const blocks = Array.from({ length: 200 }, (_, i) =>
      i === 150 ? quotes(5, '<p>deep</p>') : `<p>p${i}</p>`,
    );
    setUp(blocks.join(''));
    const { doc } = editor.state;
    expect(isChunk(doc.child(2))).toBe(true);
    const starts: number[] = [];
    forEachBlock(doc, (_block, pos) => starts.push(pos));
    let deepText = -1;
    doc.descendants((node, pos) => {
      if (node.isText && node.text === 'deep') deepText = pos;
    });
    const paragraph = editor.schema.nodes.paragraph!.create();
    // Typing in a shallow block: its own depth, not the deep block's.
    expect(changedDepth(editor.state.tr.insertText('x', starts[10]! + 1))).toBe(1);
    // Typing inside the five quotes, in a later chunk.
    expect(changedDepth(editor.state.tr.insertText('x', deepText + 1))).toBe(6);
    // A block put just before the deep one touches it.
    expect(changedDepth(editor.state.tr.insert(starts[150]!, paragraph))).toBe(6);
  });
});
