import ImageBase from '@tiptap/extension-image';
import { isAllowedImageUrl } from '../url.ts';
import { sizeAttribute } from './styleAttributes.ts';

/**
 * Images load as they come near the screen: a README holds dozens of badges, and an imported
 * document would otherwise request all of them before anyone scrolls there.
 */
const IMAGE_ELEMENT_ATTRIBUTES = { loading: 'lazy', decoding: 'async' };

/**
 * Pasted or dropped HTML images pass the image rule of docs/PRODUCT.md "Links and URLs" or are
 * dropped.
 */
const allowedSource = (element: HTMLElement | string) =>
  typeof element !== 'string' && isAllowedImageUrl(element.getAttribute('src') ?? '')
    ? null
    : false;

/** Image attributes with sizes that are plain pixel counts, whatever pasted HTML said. */
function imageAttributes(parent: Record<string, unknown> | undefined) {
  return { ...parent, width: sizeAttribute('width'), height: sizeAttribute('height') };
}

/** A block image: `![alt](src "title")` alone in a paragraph, or an `<img>` with a size. */
export const Image = ImageBase.extend({
  addAttributes() {
    return imageAttributes(this.parent?.());
  },
  parseHTML() {
    return [{ tag: 'img[src]', getAttrs: allowedSource }];
  },
}).configure({ inline: false, allowBase64: true, HTMLAttributes: IMAGE_ELEMENT_ATTRIBUTES });

/** An image inside a line of text or a link, such as a badge. */
export const InlineImage = ImageBase.extend({
  name: 'inlineImage',
  draggable: false,
  addAttributes() {
    return imageAttributes(this.parent?.());
  },
  parseHTML() {
    return [
      {
        tag: 'img[src]',
        priority: 60,
        context: 'paragraph/|heading/',
        getAttrs: allowedSource,
      },
    ];
  },
}).configure({ inline: true, allowBase64: true, HTMLAttributes: IMAGE_ELEMENT_ATTRIBUTES });
