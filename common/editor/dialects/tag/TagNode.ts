import { Node, nodeInputRule } from '@tiptap/core';
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

  // `#name` typed and followed by a blank becomes a tag, as Markdown would read it.
  addInputRules() {
    return [
      nodeInputRule({
        find: /(?:^|\s)(#([\p{L}\p{N}\p{M}_/-]*[\p{L}\p{M}_/-][\p{L}\p{N}\p{M}_/-]*))\s$/u,
        type: this.type,
        getAttributes: (match) => ({ name: match[2] }),
      }),
    ];
  },

  parseHTML() {
    return [{ tag: 'span[data-tag]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', { class: 'ink-tag', ...HTMLAttributes }, `#${String(node.attrs.name)}`];
  },
});
