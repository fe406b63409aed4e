import { Node } from '@tiptap/core';
import { sourceAsLeafText } from '../raw/leafText.ts';

const textAttribute = {
  default: '',
  parseHTML: (element: HTMLElement) => element.getAttribute('data-text') ?? '',
  renderHTML: (attributes: Record<string, unknown>) => ({ 'data-text': attributes.text }),
};

/** The Markdown source of a comment: its text between `%%` and `%%`, exactly as written. */
export const commentSource = (text: string) => `%%${text}%%`;

/** An Obsidian comment inside a line, kept verbatim and shown dimmed. */
export const CommentInline = Node.create({
  name: 'commentInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return { text: textAttribute };
  },

  extendNodeSchema: sourceAsLeafText('commentInline', (node) =>
    commentSource(String(node.attrs.text)),
  ),

  renderText: ({ node }) => commentSource(String(node.attrs.text)),

  parseHTML() {
    return [{ tag: 'span[data-comment]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return [
      'span',
      { 'data-comment': '', class: 'ink-comment', ...HTMLAttributes },
      commentSource(String(node.attrs.text)),
    ];
  },
});

/** An Obsidian comment over several lines (`%%` … `%%`), kept verbatim and shown dimmed. */
export const CommentBlock = Node.create({
  name: 'commentBlock',
  group: 'block',
  atom: true,
  selectable: true,

  addAttributes() {
    return { text: textAttribute };
  },

  extendNodeSchema: sourceAsLeafText('commentBlock', (node) =>
    commentSource(String(node.attrs.text)),
  ),

  renderText: ({ node }) => commentSource(String(node.attrs.text)),

  parseHTML() {
    return [{ tag: 'div[data-comment]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return [
      'div',
      { 'data-comment': '', class: 'ink-comment ink-comment--block', ...HTMLAttributes },
      commentSource(String(node.attrs.text)),
    ];
  },
});
