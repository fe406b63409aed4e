import { Node } from '@tiptap/core';
import { acceptSanitised, dropHtml, htmlAttribute, type HtmlNodeOptions } from './htmlNode.ts';

/**
 * A piece of raw inline HTML (`<kbd>Ctrl</kbd>`, `<sup>`, `<br>`, a comment) kept as written,
 * less what sanitising removed. An unpaired tag shows as a small tag chip.
 */
export const HtmlInline = Node.create<HtmlNodeOptions>({
  name: 'htmlInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addOptions() {
    return { sanitize: dropHtml };
  },

  addAttributes() {
    return { html: htmlAttribute(this.options.sanitize) };
  },

  parseHTML() {
    return [{ tag: 'span[data-html-inline]', getAttrs: acceptSanitised(this.options.sanitize) }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['span', { 'data-html-inline': '', ...HTMLAttributes }];
  },
});
