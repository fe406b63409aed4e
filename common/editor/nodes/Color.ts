import { Color as ColorBase } from '@tiptap/extension-text-style/color';
import { colorAttribute } from './styleAttributes.ts';

/** Text colour on the textStyle mark, limited to the colours of the shared style allow-list. */
export const Color = ColorBase.extend({
  addGlobalAttributes() {
    return [{ types: this.options.types, attributes: { color: colorAttribute } }];
  },
});
