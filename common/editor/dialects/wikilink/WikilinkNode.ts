import { InputRule, Node } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { isFileUrl } from '../../../api/fileUrl.ts';
import { sourceAsLeafText } from '../raw/leafText.ts';
import {
  isWellFormedWikilink,
  readWikilink,
  wikilinkLabel,
  wikilinkParts,
  wikilinkSource,
} from './wikilinkSyntax.ts';

const source = (node: PMNode) => wikilinkSource(wikilinkParts(node.attrs));

/** The string attribute `name`, kept in the rendered span's `data-<dataName>`. */
const dataAttribute = (name: string, dataName = name) => ({
  default: '',
  parseHTML: (element: HTMLElement) => element.getAttribute(`data-${dataName}`) ?? '',
  renderHTML: (attributes: Record<string, unknown>) => ({ [`data-${dataName}`]: attributes[name] }),
});

/**
 * An Obsidian wikilink or embed, `[[Target#fragment|alias]]` / `![[Target]]`, as one atom that
 * keeps its parts so that it is written back as it was read. It is never a URL: the editor finds
 * the target among the writer's documents by title.
 */
export const Wikilink = Node.create({
  name: 'wikilink',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      target: dataAttribute('target', 'wikilink'),
      fragment: dataAttribute('fragment'),
      alias: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute('data-alias'),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.alias === null ? {} : { 'data-alias': attributes.alias },
      },
      embed: {
        default: false,
        parseHTML: (element: HTMLElement) => element.hasAttribute('data-embed'),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.embed === true ? { 'data-embed': '' } : {},
      },
      // The uploaded file an image embed (`![[diagram.png]]`) shows, found when its vault was
      // imported: kept in the document JSON (so the server sees the reference) and never in
      // the Markdown, which keeps the embed as it was written.
      src: {
        default: null,
        parseHTML: (element: HTMLElement) => {
          const src = element.getAttribute('data-src');
          return isFileUrl(src) ? src : null;
        },
        renderHTML: (attributes: Record<string, unknown>) =>
          isFileUrl(attributes.src) ? { 'data-src': attributes.src } : {},
      },
    };
  },

  extendNodeSchema: sourceAsLeafText('wikilink', source),

  renderText: ({ node }) => source(node),

  // `[[Title]]` typed in full becomes a link, as an import would read it.
  addInputRules() {
    const type = this.type;
    return [
      new InputRule({
        find: /!?\[\[[^[\]\n]+\]\]$/,
        handler: ({ state, range, match }) => {
          const read = readWikilink(match[0], 0);
          if (!read) return null;
          state.tr.replaceWith(range.from, range.to, type.create(read.parts));
        },
      }),
    ];
  },

  // Pasted HTML is someone else's: a span whose parts would not read back as the same wikilink,
  // or whose target the link rule refuses, is taken as its text.
  parseHTML() {
    return [
      {
        tag: 'span[data-wikilink]',
        getAttrs: (element: HTMLElement) =>
          isWellFormedWikilink({
            target: element.getAttribute('data-wikilink') ?? '',
            fragment: element.getAttribute('data-fragment') ?? '',
            alias: element.getAttribute('data-alias'),
            embed: element.hasAttribute('data-embed'),
          })
            ? null
            : false,
      },
    ];
  },

  renderHTML({ node, HTMLAttributes }) {
    const label = wikilinkLabel(wikilinkParts(node.attrs));
    return ['span', { class: 'ink-wikilink', ...HTMLAttributes }, label];
  },
});
