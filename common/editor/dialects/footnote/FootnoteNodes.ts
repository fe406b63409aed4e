import { Node } from '@tiptap/core';
import { sourceAsLeafText } from '../raw/leafText.ts';

const labelAttribute = {
  default: '',
  parseHTML: (element: HTMLElement) => element.getAttribute('data-footnote') ?? '',
  renderHTML: (attributes: Record<string, unknown>) => ({ 'data-footnote': attributes.label }),
};

/** A footnote reference, `[^id]`; the editor shows it numbered by order of first reference. */
export const FootnoteRef = Node.create({
  name: 'footnoteRef',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return { label: labelAttribute };
  },

  extendNodeSchema: sourceAsLeafText('footnoteRef', (node) => `[^${String(node.attrs.label)}]`),

  renderText: ({ node }) => `[^${String(node.attrs.label)}]`,

  parseHTML() {
    return [{ tag: 'sup[data-footnote]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['sup', { class: 'ink-footnote-ref', ...HTMLAttributes }];
  },
});

/** A footnote's text, `[^id]: …`, kept where it was written. */
export const FootnoteDefinition = Node.create({
  name: 'footnoteDefinition',
  group: 'block',
  content: 'block+',
  defining: true,

  addAttributes() {
    return {
      label: labelAttribute,
      // Written on the line after the definition before it, without a blank line between.
      tight: {
        default: false,
        parseHTML: (element: HTMLElement) => element.getAttribute('data-tight') === 'true',
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.tight ? { 'data-tight': 'true' } : {},
      },
    };
  },

  parseHTML() {
    return [{ tag: 'div[data-footnote]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', { class: 'ink-footnote', ...HTMLAttributes }, 0];
  },
});

/** An inline footnote, `^[text]` (Obsidian): its text kept as written, numbered with the others. */
export const InlineFootnote = Node.create({
  name: 'inlineFootnote',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      text: {
        default: '',
        parseHTML: (element: HTMLElement) => element.getAttribute('data-inline-footnote') ?? '',
        renderHTML: (attributes: Record<string, unknown>) => ({
          'data-inline-footnote': attributes.text,
          title: attributes.text,
        }),
      },
    };
  },

  extendNodeSchema: sourceAsLeafText('inlineFootnote', (node) => `^[${String(node.attrs.text)}]`),

  renderText: ({ node }) => `^[${String(node.attrs.text)}]`,

  parseHTML() {
    return [{ tag: 'sup[data-inline-footnote]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['sup', { class: 'ink-footnote-ref ink-footnote-ref--inline', ...HTMLAttributes }];
  },
});
