// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { blocksOf } from './chunks/chunks.ts';
import { editorExtensions } from './editorExtensions.ts';
import { loadHtmlSanitizer } from './nodeViews/htmlSanitizer.ts';
import { SHORTCUT_GROUPS } from './shortcutList.ts';

/** Checks run after a shortcut, keyed by its label in the sheet. */
const EXPECTED: Record<string, (editor: Editor) => boolean> = {
  Bold: (e) => e.isActive('bold'),
  Italic: (e) => e.isActive('italic'),
  Underline: (e) => e.isActive('underline'),
  Strikethrough: (e) => e.isActive('strike'),
  'Inline code': (e) => e.isActive('code'),
  Highlight: (e) => e.isActive('highlight'),
  Paragraph: (e) => e.isActive('paragraph'),
  'Heading 1': (e) => e.isActive('heading', { level: 1 }),
  'Heading 2': (e) => e.isActive('heading', { level: 2 }),
  'Heading 3': (e) => e.isActive('heading', { level: 3 }),
  'Heading 4': (e) => e.isActive('heading', { level: 4 }),
  'Heading 5': (e) => e.isActive('heading', { level: 5 }),
  'Heading 6': (e) => e.isActive('heading', { level: 6 }),
  'Numbered list': (e) => e.isActive('orderedList'),
  'Bulleted list': (e) => e.isActive('bulletList'),
  'Task list': (e) => e.isActive('taskList'),
  Quote: (e) => e.isActive('blockquote'),
  'Code block': (e) => e.isActive('codeBlock'),
  'Align left': (e) => e.isActive({ textAlign: 'left' }),
  'Align center': (e) => e.isActive({ textAlign: 'center' }),
  'Align right': (e) => e.isActive({ textAlign: 'right' }),
  Justify: (e) => e.isActive({ textAlign: 'justify' }),
  'Line break': (e) => blocksOf(e.state.doc)[0]?.lastChild?.type.name === 'hardBreak',
};

/** Shortcuts that act outside the document model, checked in the browser instead. */
const OUTSIDE_THE_DOCUMENT = new Set([
  'Link',
  'Undo',
  'Redo',
  'Paste as Markdown',
  'Ask AI',
  'Indent list item',
  'Outdent list item',
  'Focus the formatting toolbar',
  'Keyboard shortcuts',
]);

/** A keydown as a browser on Linux sends it for a ProseMirror key name such as `Mod-Shift-7`. */
function keydown(keys: string): KeyboardEvent {
  const parts = keys.split('-');
  const key = parts.pop() ?? '';
  const shift = parts.includes('Shift');
  const digit = /^\d$/.test(key);
  const shifted: Record<string, string> = { '7': '&', '8': '*', '9': '(' };
  return new KeyboardEvent('keydown', {
    key:
      shift && digit ? (shifted[key] ?? key) : shift && key.length === 1 ? key.toUpperCase() : key,
    code: digit ? `Digit${key}` : key.length === 1 ? `Key${key.toUpperCase()}` : key,
    keyCode: digit ? 48 + Number(key) : key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0,
    ctrlKey: parts.includes('Mod'),
    altKey: parts.includes('Alt'),
    shiftKey: shift,
    bubbles: true,
    cancelable: true,
  });
}

// The editor preloads the HTML sanitiser when idle; let that import finish while the file's
// environment is still up, or it lands after teardown and fails the run.
afterAll(() => loadHtmlSanitizer());
describe('the shortcut sheet', () => {
  let editor: Editor | undefined;
  afterEach(() => editor?.destroy());

  const entries = SHORTCUT_GROUPS.flatMap((group) => group.entries).flatMap((entry) =>
    entry.keys.map((keys) => ({ label: entry.label, keys })),
  );

  it('has a check for every shortcut of the document', () => {
    for (const { label } of entries) {
      expect(label in EXPECTED || OUTSIDE_THE_DOCUMENT.has(label), label).toBe(true);
    }
  });

  it.each(entries.filter(({ label }) => label in EXPECTED))(
    '$label works with $keys',
    ({ label, keys }) => {
      const noop = () => undefined;
      editor = new Editor({
        element: document.createElement('div'),
        extensions: editorExtensions({
          markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
        }),
        content: label === 'Paragraph' ? '<h2>word</h2>' : '<p>word</p>',
      });
      // The word's start: its line sits in a chunk (chunks/chunks.ts), one level down.
      let from = 0;
      editor.state.doc.descendants((node, pos) => {
        if (node.isTextblock && from === 0) from = pos + 1;
        return from === 0;
      });
      const to = from + 'word'.length;
      editor.commands.setTextSelection(label === 'Line break' ? to : { from, to });
      editor.view.dom.dispatchEvent(keydown(keys));
      expect(EXPECTED[label]?.(editor)).toBe(true);
    },
  );
});
