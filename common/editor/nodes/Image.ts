import { InputRule, mergeAttributes, Node, nodeInputRule } from '@tiptap/core';
import { isAllowedImageUrl } from '../url.ts';
import { sizeAttribute } from './styleAttributes.ts';

/*
 * The nodes' own code rather than @tiptap/extension-image's: the package's node view for resizing
 * images, which Inkwell does not use, could not be left out of the build. With the YouTube
 * package's embed builder (Video.ts), that was 4.9 kB gzip of the editor's first download
 * (docs/ARCHITECTURE.md, common/editor/nodes).
 */

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

/** `![alt](src "title")` typed at the end of a line: the source passes the same rule. */
const TYPED_IMAGE = /(?:^|\s)(!\[(.+|:?)]\((\S+)(?:(?:\s+)["'](\S+)["'])?\))$/;

/** The attributes of an image, block or inline; sizes are plain pixel counts, whatever pasted HTML said. */
const imageAttributes = () => ({
  src: { default: null },
  alt: { default: null },
  title: { default: null },
  width: sizeAttribute('width'),
  height: sizeAttribute('height'),
});

/** The image node under `name`: shared by the block and the inline image. */
function imageNode(name: string, inline: boolean) {
  return Node.create({
    name,
    inline,
    group: inline ? 'inline' : 'block',
    draggable: !inline,
    addAttributes: imageAttributes,
    renderHTML({ HTMLAttributes }) {
      return ['img', mergeAttributes(IMAGE_ELEMENT_ATTRIBUTES, HTMLAttributes)];
    },
    addInputRules() {
      const rule = nodeInputRule({
        find: TYPED_IMAGE,
        type: this.type,
        getAttributes: ([, , alt, src, title]) => ({ src, alt, title }),
      });
      return [
        new InputRule({
          find: TYPED_IMAGE,
          handler: (props) =>
            isAllowedImageUrl(props.match[3] ?? '') ? rule.handler(props) : null,
        }),
      ];
    },
  });
}

/** A block image: `![alt](src "title")` alone in a paragraph, or an `<img>` with a size. */
export const Image = imageNode('image', false).extend({
  parseHTML() {
    return [{ tag: 'img[src]', getAttrs: allowedSource }];
  },
});

/** An image inside a line of text or a link, such as a badge. */
export const InlineImage = imageNode('inlineImage', true).extend({
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
});
