// @vitest-environment jsdom
import { Editor, type JSONContent } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { currentBlockType, turnInto, type BlockTypeId } from './blockTypes.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** An editor holding `html`, with the cursor inside the text "here". */
function editorAt(html: string): Editor {
  editor = new Editor({ extensions: contentExtensions(), content: html });
  let pos = 0;
  editor.state.doc.descendants((node, at) => {
    const index = node.isText ? (node.text ?? '').indexOf('here') : -1;
    if (index >= 0 && pos === 0) pos = at + index + 1;
  });
  editor.commands.setTextSelection(pos);
  return editor;
}

const blockTypes = (doc: JSONContent): string[] =>
  (doc.content ?? []).map((node) => node.type ?? '');

describe('currentBlockType', () => {
  it.each([
    ['<p>here</p>', 'paragraph'],
    ['<h3>here</h3>', 'heading3'],
    ['<blockquote><p>here</p></blockquote>', 'blockquote'],
    ['<ul><li><p>here</p></li></ul>', 'bulletList'],
    ['<ol><li><p>here</p></li></ol>', 'orderedList'],
    ['<ul data-type="taskList"><li data-type="taskItem"><p>here</p></li></ul>', 'taskList'],
    ['<pre><code>here</code></pre>', 'codeBlock'],
  ] as const)('reads %s as %s', (html, expected) => {
    expect(currentBlockType(editorAt(html).state.selection)).toBe(expected);
  });
});

describe('turnInto', () => {
  const turn = (html: string, target: BlockTypeId) => {
    const e = editorAt(html);
    turnInto(e.chain(), target, currentBlockType(e.state.selection)).run();
    return e;
  };

  it('turns a paragraph into each kind of block', () => {
    expect(blockTypes(turn('<p>here</p>', 'heading2').getJSON())).toEqual(['heading']);
    expect(turn('<p>here</p>', 'heading2').getJSON().content?.[0]?.attrs?.level).toBe(2);
    expect(blockTypes(turn('<p>here</p>', 'blockquote').getJSON())).toEqual(['blockquote']);
    expect(blockTypes(turn('<p>here</p>', 'bulletList').getJSON())).toEqual(['bulletList']);
    expect(blockTypes(turn('<p>here</p>', 'orderedList').getJSON())).toEqual(['orderedList']);
    expect(blockTypes(turn('<p>here</p>', 'taskList').getJSON())).toEqual(['taskList']);
    expect(blockTypes(turn('<p>here</p>', 'codeBlock').getJSON())).toEqual(['codeBlock']);
  });

  it('takes a list item or quote back to a paragraph', () => {
    expect(blockTypes(turn('<ul><li><p>here</p></li></ul>', 'paragraph').getJSON())).toEqual([
      'paragraph',
    ]);
    expect(blockTypes(turn('<blockquote><p>here</p></blockquote>', 'paragraph').getJSON())).toEqual(
      ['paragraph'],
    );
  });

  it('converts between bullet and numbered lists in place, keeping nesting', () => {
    const e = turn('<ul><li><p>a</p><ul><li><p>here</p></li></ul></li></ul>', 'orderedList');
    expect(e.getHTML()).toContain('<ul><li><p>a</p><ol');
  });

  it('turns a task list into a bullet list', () => {
    const html = '<ul data-type="taskList"><li data-type="taskItem"><p>here</p></li></ul>';
    expect(blockTypes(turn(html, 'bulletList').getJSON())).toEqual(['bulletList']);
  });

  it('does nothing when the block already has the kind', () => {
    const e = turn('<h2>here</h2>', 'heading2');
    expect(e.getHTML()).toBe('<h2>here</h2>');
  });
});
