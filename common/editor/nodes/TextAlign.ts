import TextAlignBase from '@tiptap/extension-text-align';
import { textAlignAttribute } from './styleAttributes.ts';

/** Paragraph and heading alignment; only the four values ever reach a style attribute. */
export const TextAlign = TextAlignBase.extend({
  addGlobalAttributes() {
    return [{ types: this.options.types, attributes: { textAlign: textAlignAttribute } }];
  },
}).configure({
  types: ['heading', 'paragraph'],
  alignments: ['left', 'center', 'right', 'justify'],
});
