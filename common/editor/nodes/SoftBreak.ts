import { Node } from '@tiptap/core';

/**
 * A line break inside a paragraph of a Markdown file (a "soft" break). It reads and renders as a
 * space, as in any Markdown viewer, but export writes the line break back, so a hard-wrapped file
 * keeps its lines and its diffs stay small.
 */
export const SoftBreak = Node.create({
  name: 'softBreak',
  group: 'inline',
  inline: true,
  selectable: false,

  renderText: () => ' ',

  parseHTML() {
    return [{ tag: 'span[data-soft-break]' }];
  },

  renderHTML() {
    return ['span', { 'data-soft-break': '' }, ' '];
  },
});
