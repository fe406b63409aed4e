import { Node } from '@tiptap/core';
import { acceptSanitised, dropHtml, htmlAttribute, type HtmlNodeOptions } from './htmlNode.ts';

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
export const HtmlBlock = Node.create<HtmlNodeOptions>({
  name: 'htmlBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

  addOptions() {
    return { sanitize: dropHtml };
  },

  addAttributes() {
    return { html: htmlAttribute(this.options.sanitize) };
  },

  parseHTML() {
    return [{ tag: 'div[data-html-block]', getAttrs: acceptSanitised(this.options.sanitize) }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', { 'data-html-block': '', ...HTMLAttributes }];
  },

  addCommands() {
    return {
      insertHtmlBlock:
        (html) =>
        ({ commands }) => {
          const clean = this.options.sanitize(html);
          return clean
            ? commands.insertContent({ type: this.name, attrs: { html: clean } })
            : false;
        },
    };
  },
});
