// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { BubbleMenuPlugin } from '@tiptap/extension-bubble-menu';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { editorOrMenuHasFocus } from './bubble.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** A mounted editor holding "Hello world" with a bubble menu asking `editorOrMenuHasFocus`. */
function editorWithMenu(): { editor: Editor; menu: HTMLElement; asked: boolean[] } {
  const mount = document.body.appendChild(document.createElement('div'));
  const editor = new Editor({
    element: mount,
    extensions: contentExtensions(),
    content: {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello world' }] }],
    },
  });
  const menu = document.createElement('div');
  const asked: boolean[] = [];
  editor.registerPlugin(
    BubbleMenuPlugin({
      editor,
      element: menu,
      pluginKey: 'testMenu',
      shouldShow: ({ view, element }) => {
        const answer = editorOrMenuHasFocus(view, element);
        asked.push(answer);
        return answer;
      },
    }),
  );
  return { editor, menu, asked };
}

describe('editorOrMenuHasFocus', () => {
  it('answers false, without throwing, when the menu asks after its editor was destroyed', () => {
    const { editor, menu, asked } = editorWithMenu();
    editor.commands.setTextSelection({ from: 1, to: 6 });
    asked.length = 0;
    // The plugin waits 250 ms after a selection change before asking; a page change can destroy
    // the editor within that time.
    editor.destroy();
    expect(() => vi.advanceTimersByTime(300)).not.toThrow();
    expect(asked).toEqual([false]);
    expect(menu.isConnected).toBe(false);
  });

  it('is true while the editor has focus and false once focus is elsewhere', () => {
    const { editor, menu } = editorWithMenu();
    editor.view.focus();
    expect(editorOrMenuHasFocus(editor.view, menu)).toBe(true);
    editor.view.dom.blur();
    expect(editorOrMenuHasFocus(editor.view, menu)).toBe(false);
    editor.destroy();
  });
});
