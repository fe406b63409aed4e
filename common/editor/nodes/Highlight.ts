import HighlightBase from '@tiptap/extension-highlight';
import { highlightColorAttribute } from './styleAttributes.ts';

/** A highlight, in any colour of the shared style allow-list. */
export const Highlight = HighlightBase.extend({
  addAttributes() {
    return this.options.multicolor ? { color: highlightColorAttribute } : {};
  },
}).configure({ multicolor: true });
