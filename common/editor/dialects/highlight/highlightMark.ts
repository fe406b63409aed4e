import { markInputRule, markPasteRule } from '@tiptap/core';
import { inputRegex, pasteRegex } from '@tiptap/extension-highlight';
import { Highlight } from '../../nodes/Highlight.ts';

/**
 * Inkwell's highlight (colours from the style allow-list) with the syntax it was written in: `==` (Obsidian's highlight) or null for
 * a `<mark>` tag, so that export writes each back the way it came in.
 */
export const InkHighlight = Highlight.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      syntax: {
        default: null,
        parseHTML: (element: HTMLElement) =>
          element.getAttribute('data-syntax') === '==' ? '==' : null,
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.syntax === '==' ? { 'data-syntax': '==' } : {},
      },
    };
  },

  // Typed or pasted `==text==` is written back as `==text==`.
  addInputRules() {
    return [markInputRule({ find: inputRegex, type: this.type, getAttributes: { syntax: '==' } })];
  },

  addPasteRules() {
    return [markPasteRule({ find: pasteRegex, type: this.type, getAttributes: { syntax: '==' } })];
  },
});
