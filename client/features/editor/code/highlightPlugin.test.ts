// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import type { Decoration } from '@tiptap/pm/view';
import { describe, expect, it, vi } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { HighlightedCodeBlock } from './HighlightedCodeBlock.ts';
import { CHUNK_SIZE } from '../chunks/chunks.ts';
import { editorExtensions } from '../editorExtensions.ts';
import { openIn } from '../openIn.ts';
import { DOMParser as PMDOMParser } from '@tiptap/pm/model';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { codeHighlightKey, nextHighlightBudget } from './highlightPlugin.ts';

function editorWith(content: string): Editor {
  return new Editor({
    element: document.createElement('div'),
    extensions: contentExtensions({ codeBlock: HighlightedCodeBlock }),
    content,
  });
}

const decorations = (editor: Editor) =>
  codeHighlightKey.getState(editor.state)?.decorations.find() ?? [];

async function settle(editor: Editor, predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !predicate(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(predicate(), 'waited for highlighting').toBe(true);
  void editor;
}

describe('code highlighting', () => {
  it('loads the grammar of the info string and decorates tokens', async () => {
    const editor = editorWith('<pre><code class="language-ts">const x: number = 1;</code></pre>');
    await settle(editor, () => decorations(editor).length > 0);
    const html = editor.view.dom.innerHTML;
    expect(html).toContain('hljs-keyword');
    expect(html).toContain('hljs-number');
    editor.destroy();
  });

  it('leaves code in unknown languages plain', () => {
    const editor = editorWith(
      '<pre><code class="language-mermaid">graph TD; A--&gt;B</code></pre>',
    );
    expect(decorations(editor)).toHaveLength(0);
    editor.destroy();
  });

  it('keeps a code block’s decorations when text elsewhere changes', async () => {
    const editor = editorWith(
      '<p>text</p><pre><code class="language-python">def f(): return 1</code></pre>',
    );
    await settle(editor, () => decorations(editor).length > 0);
    const before = decorations(editor);
    editor.commands.insertContentAt(1, 'more ');
    const after = decorations(editor);
    expect(after.length).toBe(before.length);
    expect(after[0]?.from).toBe((before[0]?.from ?? 0) + 5);
    editor.destroy();
  });

  it('highlights again when the language changes and after an edit inside', async () => {
    const editor = editorWith('<pre><code class="language-python">x = 1</code></pre>');
    await settle(editor, () => decorations(editor).length > 0);
    editor.commands.updateAttributes('codeBlock', { language: 'mermaid' });
    expect(decorations(editor)).toHaveLength(0);
    editor.commands.updateAttributes('codeBlock', { language: 'python' });
    expect(decorations(editor).length).toBeGreaterThan(0);
    editor.commands.insertContentAt(1, 'def ');
    expect(editor.view.dom.innerHTML).toContain('hljs-keyword');
    editor.destroy();
  });

  it('highlights a change touching many code blocks in idle slices, all of them in the end', async () => {
    const editor = editorWith('<p>start</p>');
    const blocks = Array.from(
      { length: 60 },
      (_, i) => `<pre><code class="language-python">def f${i}(): return ${i}</code></pre>`,
    ).join('');
    editor.commands.setContent(blocks);
    const highlighted = () =>
      new Set(decorations(editor).map((d) => editor.state.doc.resolve(d.from).before(1))).size;
    expect(highlighted()).toBeLessThan(60);
    await settle(editor, () => highlighted() === 60);
    expect(codeHighlightKey.getState(editor.state)?.pending).toBeNull();
    editor.destroy();
  });

  it('keeps the very decorations of highlighted blocks when another grammar loads', async () => {
    const editor = editorWith('<pre><code class="language-python">def f(): return 1</code></pre>');
    await settle(editor, () => decorations(editor).length > 0);
    const before = decorations(editor);
    editor.commands.insertContentAt(
      editor.state.doc.content.size,
      '<pre><code class="language-rust">fn main() { let x = 1; }</code></pre>',
    );
    const rustStart = editor.state.doc.child(0).nodeSize;
    await settle(editor, () => decorations(editor).some((d) => d.from > rustStart));
    const python = decorations(editor).filter((d) => d.from < rustStart);
    expect(python).toHaveLength(before.length);
    // `find` returns copies; the copies share the original decoration's (internal) type object.
    const typeOf = (decoration: Decoration) => (decoration as unknown as { type: object }).type;
    python.forEach((decoration, i) => expect(typeOf(decoration)).toBe(typeOf(before[i]!)));
    editor.destroy();
  });

  it('highlights again every block one change edited across many code blocks', async () => {
    const count = 30;
    const editor = editorWith(
      Array.from(
        { length: count },
        () => '<pre><code class="language-python">x = 1</code></pre>',
      ).join(''),
    );
    const highlightedText = () =>
      decorations(editor).map((d) => editor.state.doc.textBetween(d.from, d.to));
    await settle(editor, () => highlightedText().filter((t) => t === '1').length === count);
    // One transaction puts "def " before each block's text (a replace-all would do this).
    const tr = editor.state.tr;
    editor.state.doc.forEach((_block, offset) => tr.insertText('def ', tr.mapping.map(offset + 1)));
    editor.view.dispatch(tr);
    await settle(editor, () => highlightedText().filter((t) => t === 'def').length === count);
    expect(codeHighlightKey.getState(editor.state)?.pending).toBeNull();
    editor.destroy();
  });

  it('highlights less per slice when drawing the tokens costs more than finding them', () => {
    // 8 ms of highlighting whose tokens took 40 ms more to draw: the next slice, drawing alike,
    // fits in about 10 ms.
    const dear = nextHighlightBudget(8, 48);
    expect(dear).toBeLessThan(2);
    expect(dear * (48 / 8)).toBeLessThanOrEqual(10);
    // Cheap drawing: up to 8 ms of highlighting, never more.
    expect(nextHighlightBudget(4, 5)).toBe(8);
    expect(nextHighlightBudget(8, 9)).toBe(8);
    // However dear the drawing, a slice still highlights something.
    expect(nextHighlightBudget(1, 200)).toBe(1);
    expect(nextHighlightBudget(0, 3)).toBe(8);
  });

  it('highlights the code of the parts the browser draws, and the rest as it comes into view', async () => {
    // Chromium's event, which jsdom lacks: a chunk starts or stops being drawn.
    vi.stubGlobal('ContentVisibilityAutoStateChangeEvent', Event);
    const drawnState = (element: Element, skipped: boolean) =>
      element.dispatchEvent(
        Object.assign(new Event('contentvisibilityautostatechange'), { skipped }),
      );
    const noop = () => undefined;
    const element = document.createElement('div');
    document.body.append(element);
    const blocks = Array.from(
      { length: CHUNK_SIZE * 3 },
      (_, i) => `<pre><code class="language-python">def f${i}(): return ${i}</code></pre>`,
    );
    const editor = new Editor({
      element,
      extensions: editorExtensions({
        markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
      }),
    });
    try {
      // Opened as a document is: its blocks in chunks.
      const schema = inkwellSchema();
      const parsed = PMDOMParser.fromSchema(schema).parse(
        Object.assign(document.createElement('div'), { innerHTML: blocks.join('') }),
      );
      openIn(editor, parsed);
      const chunks = [...editor.view.dom.querySelectorAll('.ink-chunk')];
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      // The caret sits in the first chunk; the browser says it draws the last one.
      drawnState(chunks[0]!, false);
      drawnState(chunks.at(-1)!, false);
      drawnState(chunks[1]!, true);
      const chunkOf = (pos: number) => editor.state.doc.resolve(pos).index(0);
      const highlighted = () => new Set(decorations(editor).map((d) => chunkOf(d.from)));
      const last = chunks.length - 1;
      await settle(editor, () => highlighted().has(0) && highlighted().has(last));
      // The middle chunk is not drawn: its code waits.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(highlighted().has(1)).toBe(false);
      // Scrolled to: drawn, then highlighted.
      drawnState(chunks[1]!, false);
      await settle(editor, () => highlighted().has(1));
    } finally {
      editor.destroy();
      vi.unstubAllGlobals();
    }
  });
});
