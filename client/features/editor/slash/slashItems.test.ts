// @vitest-environment jsdom
import { Editor, type JSONContent } from '@tiptap/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { SLASH_ITEMS } from './slashItems.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** Runs the item with `id` as if `/query` had just been typed at the end of `text`. */
function runItem(id: string, text: string, query = 'x') {
  editor = new Editor({
    extensions: contentExtensions(),
    content: {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: `${text}/${query}` }] }],
    },
  });
  const to = editor.state.doc.content.size - 1;
  const range = { from: to - query.length - 1, to };
  const item = SLASH_ITEMS.find((entry) => entry.id === id);
  if (!item) throw new Error(`no slash item ${id}`);
  item.run({ editor, range });
  return editor;
}

describe('slash items', () => {
  it('turns the line into a heading and removes the typed /query', () => {
    expect(runItem('heading2', 'Title').getHTML()).toBe('<h2>Title</h2>');
  });

  it('inserts an empty formula for its source to be typed', () => {
    const json: JSONContent = runItem('mathInline', 'Area ').getJSON();
    expect(json.content?.[0]?.content?.[1]).toEqual({
      type: 'mathInline',
      attrs: { tex: '', display: false },
    });
  });

  it('inserts a 3 × 3 table with a header row', async () => {
    const editor = runItem('table', '');
    const table = await vi.waitFor((): JSONContent | undefined => {
      const json: JSONContent = editor.getJSON();
      const found = json.content?.find((node) => node.type === 'table');
      expect(found).toBeDefined();
      return found;
    });
    expect(table?.content).toHaveLength(3);
    expect(table?.content?.[0]?.content?.map((cell) => cell.type)).toEqual([
      'tableHeader',
      'tableHeader',
      'tableHeader',
    ]);
    expect(table?.content?.[1]?.content?.[0]?.type).toBe('tableCell');
  });

  it('inserts a divider', () => {
    expect(runItem('divider', '').getHTML()).toContain('<hr>');
  });

  it('inserts a code block with the language typed as /python', () => {
    const json: JSONContent = runItem('code-python', '', 'python').getJSON();
    expect(json.content?.[0]).toMatchObject({ type: 'codeBlock', attrs: { language: 'python' } });
  });

  it('starts a task list', () => {
    expect(runItem('taskList', 'Buy milk').getJSON().content?.[0]?.type).toBe('taskList');
  });
});
