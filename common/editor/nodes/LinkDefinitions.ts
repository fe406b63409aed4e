import { Node } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/**
 * Link reference definitions (`[label]: https://… "title"`) as a file wrote them, one run of lines
 * without a blank line between: export writes them back verbatim, and the links that use them as
 * references (docs/PRODUCT.md, "Markdown"). The links carry their own URL, checked by the link
 * rule; this block is the source text only, shown dimmed and edited as a whole.
 */
export const LinkDefinitions = Node.create({
  name: 'linkDefinitions',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

  addAttributes() {
    return {
      markdown: {
        default: '',
        parseHTML: (element) => element.textContent ?? '',
        // The text is the element's content, not an attribute.
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'pre[data-link-definitions]', preserveWhitespace: 'full' }];
  },

  renderHTML({ node }) {
    return ['pre', { 'data-link-definitions': '' }, markdownOf(node)];
  },

  renderText({ node }) {
    return markdownOf(node);
  },
});

function markdownOf(node: ProseMirrorNode): string {
  const markdown: unknown = node.attrs.markdown;
  return typeof markdown === 'string' ? markdown : '';
}
