// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../../../../common/editor/extensions.ts';
import { FrontMatterKeymap } from './FrontMatterKeymap.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function pressBackspace(view: Editor['view']): void {
  const event = new KeyboardEvent('keydown', { key: 'Backspace', keyCode: 8, bubbles: true });
  view.someProp('handleKeyDown', (handle) => handle(view, event));
}

describe('Backspace below the front matter', () => {
  it('leaves the front matter in place at the start of the first block', () => {
    editor = new Editor({
      extensions: [...contentExtensions(), FrontMatterKeymap],
      content: {
        type: 'doc',
        content: [
          { type: 'frontMatter', attrs: { yaml: 'a: 1\n' } },
          { type: 'paragraph', content: [{ type: 'text', text: 'Text' }] },
        ],
      },
    });
    const start = editor.state.doc.firstChild!.nodeSize + 1;
    editor.view.dispatch(
      editor.state.tr.setSelection(TextSelection.create(editor.state.doc, start)),
    );
    pressBackspace(editor.view);
    expect(editor.state.doc.firstChild?.type.name).toBe('frontMatter');
    expect(editor.state.doc.textContent).toBe('Text');
  });
});
