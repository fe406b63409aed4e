import { Node } from '@tiptap/core';
import { sourceAsLeafText } from '../raw/leafText.ts';

/** An Obsidian tag, `#name`, kept as written; the editor makes a click search for it. */
export const Tag = Node.create({
  name: 'tag',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      name: {
        default: '',
        parseHTML: (element: HTMLElement) => element.getAttribute('data-tag') ?? '',
        renderHTML: (attributes: Record<string, unknown>) => ({ 'data-tag': attributes.name }),
      },
    };
  },

  extendNodeSchema: sourceAsLeafText('tag', (node) => `#${String(node.attrs.name)}`),

  renderText: ({ node }) => `#${String(node.attrs.name)}`,

  parseHTML() {
    return [{ tag: 'span[data-tag]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', { class: 'ink-tag', ...HTMLAttributes }, `#${String(node.attrs.name)}`];
  },
});
