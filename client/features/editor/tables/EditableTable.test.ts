// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { describe, expect, it, vi } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { EditableTable } from './EditableTable.ts';

const TABLE = '<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>';

function editorWith(content: string): Editor {
  return new Editor({
    element: document.createElement('div'),
    extensions: contentExtensions({ table: EditableTable }),
    content,
  });
}

/** The names of the editor's plugins (their keys), in order. */
const pluginKeys = (editor: Editor) =>
  editor.state.plugins.map((plugin) => (plugin.spec.key as { key?: string } | undefined)?.key);

const hasTableEditing = (editor: Editor) =>
  pluginKeys(editor).some((key) => key?.startsWith('selectingCells'));

async function settle(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !predicate(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(predicate(), 'waited for table editing').toBe(true);
}

describe('EditableTable', () => {
  it('loads table editing in place of its slot when the document has a table', async () => {
    const editor = editorWith(TABLE);
    const slotIndex = pluginKeys(editor).findIndex((key) =>
      key?.startsWith('inkwellTableEditingSlot'),
    );
    expect(slotIndex).toBeGreaterThanOrEqual(0);
    await settle(() => hasTableEditing(editor));
    expect(pluginKeys(editor)[slotIndex]).toMatch(/^selectingCells/);
    expect(pluginKeys(editor).some((key) => key?.startsWith('inkwellTableEditingSlot'))).toBe(
      false,
    );
    editor.destroy();
  });

  it('leaves table editing out of a document without tables until one is inserted', async () => {
    const editor = editorWith('<p>Words</p>');
    await new Promise((r) => setTimeout(r, 100));
    expect(hasTableEditing(editor)).toBe(false);
    editor.commands.insertTable({ rows: 2, cols: 2, withHeaderRow: true });
    await settle(() => hasTableEditing(editor));
    editor.destroy();
  });

  it('moves to the next cell on Tab and adds a row from the last cell', async () => {
    const editor = editorWith(TABLE);
    await settle(() => hasTableEditing(editor));
    editor.commands.setTextSelection(3);
    expect(editor.state.selection.$from.parent.textContent).toBe('A');
    expect(editor.commands.goToNextCell()).toBe(true);
    expect(editor.state.selection.$from.parent.textContent).toBe('B');
    editor.commands.setTextSelection(editor.state.doc.content.size - 3);
    expect(editor.state.selection.$from.parent.textContent).toBe('2');
    expect(editor.commands.goToNextCell()).toBe(false);
    expect(editor.chain().addRowAfter().goToNextCell().run()).toBe(true);
    expect(editor.view.dom.querySelectorAll('tr')).toHaveLength(3);
    editor.destroy();
  });

  it('keeps a Tab pressed in a table before its editing has loaded, and moves once it has', async () => {
    // A fresh copy of the module, whose table editing has not been loaded yet.
    vi.resetModules();
    const fresh = await import('./EditableTable.ts');
    const editor = new Editor({
      element: document.createElement('div'),
      extensions: contentExtensions({ table: fresh.EditableTable }),
      content: TABLE,
    });
    editor.commands.setTextSelection(3);
    const tab = new KeyboardEvent('keydown', { key: 'Tab', cancelable: true, bubbles: true });
    editor.view.dom.dispatchEvent(tab);
    // Let through, the browser would move the focus out of the editor.
    expect(tab.defaultPrevented).toBe(true);
    expect(hasTableEditing(editor)).toBe(false);
    await settle(() => editor.state.selection.$from.parent.textContent === 'B');
    editor.destroy();
  });

  it('shows a table in a wrapper with one column element per column', () => {
    const editor = editorWith(TABLE);
    const wrapper = editor.view.dom.querySelector('div.tableWrapper');
    expect(wrapper?.querySelectorAll('table > colgroup > col')).toHaveLength(2);
    expect(wrapper?.querySelector('table')?.style.minWidth).toBe('50px');
    editor.destroy();
  });
});
