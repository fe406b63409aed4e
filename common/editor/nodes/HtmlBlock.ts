import { Node } from '@tiptap/core';
import { sanitizeHtml } from '../html/sanitize.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    htmlBlock: {
      /** Inserts a block of raw HTML, sanitised first. */
      insertHtmlBlock: (html: string) => ReturnType;
    };
  }
}

/**
 * Raw HTML that the schema cannot represent (`<div align="center">`, `<details>`, comments),
 * kept as written less what sanitising removed. The client shows it rendered through a node view.
 */
export const HtmlBlock = Node.create({
  name: 'htmlBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

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
    return [{ tag: 'div[data-html-block]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', { 'data-html-block': '', ...HTMLAttributes }];
  },

  addCommands() {
    return {
      insertHtmlBlock:
        (html) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: { html: sanitizeHtml(html) } }),
    };
  },
});
