import { Mark } from '@tiptap/core';

/**
 * Punctuation that a Markdown file wrote with a backslash (`\$10`, `a\_b`) where export would not
 * add one, so that the backslash comes back (docs/PRODUCT.md, "Markdown"). The text is the same
 * with or without it; typing next to it does not extend it.
 */
export const Escaped = Mark.create({
  name: 'escaped',
  inclusive: false,
  excludes: '',
  // Lowest priority: the innermost mark, so that it splits no other mark's element.
  priority: 1,

  parseHTML() {
    return [{ tag: 'span[data-md-escaped]' }];
  },

  renderHTML() {
    return ['span', { 'data-md-escaped': '' }, 0];
  },
});

/** The characters that export always writes with a backslash, so the mark is never needed. */
export const ALWAYS_ESCAPED = new Set(['\\', '`']);

/** True for the ASCII punctuation that a backslash escapes in CommonMark. */
export function isEscapable(c: string): boolean {
  return c.length === 1 && /[!-/:-@[-`{-~]/.test(c);
}
