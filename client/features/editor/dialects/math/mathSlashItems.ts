import type { SlashItem } from '../../slash/slashItems.ts';

/**
 * Math from the slash menu: an empty formula whose source opens at once (an empty one is
 * removed when its source closes, so no `$$` is ever left behind).
 */
export const MATH_SLASH_ITEMS: SlashItem[] = [
  {
    id: 'mathInline',
    title: 'Inline math',
    description: 'TeX formula in the line, $…$',
    keywords: ['math', 'tex', 'latex', 'katex', 'formula', 'equation', '$'],
    icon: '∑',
    run: ({ editor, range }) =>
      editor
        .chain()
        .focus()
        .insertContentAt(range, { type: 'mathInline', attrs: { tex: '' } })
        .run(),
  },
  {
    id: 'mathBlock',
    title: 'Math block',
    description: 'Displayed TeX formula, $$…$$',
    keywords: ['math', 'tex', 'latex', 'katex', 'formula', 'equation', 'display', '$$'],
    icon: '∫',
    run: ({ editor, range }) =>
      editor
        .chain()
        .focus()
        .insertContentAt(range, { type: 'mathBlock', attrs: { tex: '' } })
        .run(),
  },
];
