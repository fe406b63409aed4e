import { Node } from '@tiptap/core';
import { sanitizeHtml } from '../html/sanitize.ts';

/**
 * A piece of raw inline HTML (`<kbd>Ctrl</kbd>`, `<sup>`, `<br>`, a comment) kept as written,
 * less what sanitising removed. An unpaired tag shows as a small tag chip.
 */
export const HtmlInline = Node.create({
  name: 'htmlInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      html: {
        default: '',
        parseHTML: (element) => sanitizeHtml(element.getAttribute('data-html') ?? ''),
        renderHTML: (attributes) => ({ 'data-html': String(attributes.html ?? '') }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'span[data-html-inline]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['span', { 'data-html-inline': '', ...HTMLAttributes }];
  },
});
