// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { editorExtensions } from './editorExtensions.ts';
import { loadHtmlSanitizer } from './nodeViews/htmlSanitizer.ts';
import { TrailingNode, UndoRedo } from './starterKitExtensions.ts';

const noop = () => undefined;
const markdown = { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop };
const element = () => document.createElement('div');

afterAll(() => loadHtmlSanitizer());
describe('the editor without Tiptap’s undo', () => {
  it('has its cursors and word count, and no undo of its own, unless one is given', () => {
    const editor = new Editor({ element: element(), extensions: editorExtensions({ markdown }) });
    const names = editor.extensionManager.extensions.map((extension) => extension.name);
    expect(names).toEqual(expect.arrayContaining(['dropCursor', 'gapCursor', 'characterCount']));
    expect(names).not.toContain('undoRedo');
    editor.destroy();
  });

  it('fails loudly if StarterKit ever adds the extensions the browser build leaves out', () => {
    for (const extension of [UndoRedo, TrailingNode]) {
      const kit = StarterKit.configure({ undoRedo: false, trailingNode: false });
      expect(() => new Editor({ element: element(), extensions: [kit, extension] })).toThrow(
        `StarterKit was given ${extension.name} in the browser build`,
      );
    }
  });
});
