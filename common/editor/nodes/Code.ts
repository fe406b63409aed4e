import CodeBase from '@tiptap/extension-code';

/**
 * Inline code that other marks may wrap: Markdown has `**`bold code`**` and, above all,
 * [`linked code`](…), which Tiptap's default (code excludes every other mark) would unlink.
 */
export const Code = CodeBase.extend({ excludes: '' });
