import { Node } from '@tiptap/core';
import { sourceAsLeafText } from '../raw/leafText.ts';

const texAttribute = {
  default: '',
  parseHTML: (element: HTMLElement) => element.getAttribute('data-tex') ?? element.textContent,
  renderHTML: (attributes: Record<string, unknown>) => ({ 'data-tex': attributes.tex }),
};

/** TeX as written between its delimiters, never changed by import or export. */
export const inlineMathSource = (tex: string, display: boolean) =>
  display ? `$$${tex}$$` : `$${tex}$`;

/** Math inside a line: `$…$`, or `$$…$$` written inside a paragraph (shown as display math). */
export const MathInline = Node.create({
  name: 'mathInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      tex: texAttribute,
      display: {
        default: false,
        parseHTML: (element: HTMLElement) => element.getAttribute('data-display') === 'true',
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.display ? { 'data-display': 'true' } : {},
      },
    };
  },

  extendNodeSchema: sourceAsLeafText('mathInline', (node) =>
    inlineMathSource(String(node.attrs.tex), node.attrs.display === true),
  ),

  renderText: ({ node }) => inlineMathSource(String(node.attrs.tex), node.attrs.display === true),

  parseHTML() {
    return [{ tag: 'span[data-math-inline]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', { 'data-math-inline': '', ...HTMLAttributes }, String(node.attrs.tex)];
  },
});

/** Display math as a block of its own: `$$` on a line, the TeX, `$$`. */
export const MathBlock = Node.create({
  name: 'mathBlock',
  group: 'block',
  atom: true,
  selectable: true,

  addAttributes() {
    return { tex: texAttribute };
  },

  extendNodeSchema: sourceAsLeafText('mathBlock', (node) => `$$${String(node.attrs.tex)}$$`),

  renderText: ({ node }) => `$$${String(node.attrs.tex)}$$`,

  parseHTML() {
    return [{ tag: 'div[data-math-block]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['div', { 'data-math-block': '', ...HTMLAttributes }, String(node.attrs.tex)];
  },
});
