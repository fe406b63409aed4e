import { Node } from '@tiptap/core';
import { CALLOUT_TYPE } from './calloutTypes.ts';

/** The node name, also used by the Markdown codec and the editor's node view. */
export const CALLOUT = 'callout';

/** A callout's fold marker: none, `-` (folded) or `+` (foldable, open). */
export type CalloutFold = '' | '-' | '+';

/** The attributes of a callout, each as written in `> [!type]fold Title`. */
export interface CalloutAttrs {
  /** The type as written (`note`, `NOTE`, `faq`, a custom one). */
  type: string;
  /** The fold marker; changing it is an edit of the document. */
  fold: CalloutFold;
  /** The title as written after the marker, '' when there is none. */
  title: string;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout. */
      setCallout: (attrs?: Partial<CalloutAttrs>) => ReturnType;
    };
  }
}

/** The attributes of a stored or parsed callout, with anything that would not read back replaced. */
export function calloutAttrs(value: Partial<Record<keyof CalloutAttrs, unknown>>): CalloutAttrs {
  const type =
    typeof value.type === 'string' && CALLOUT_TYPE.test(value.type) ? value.type : 'note';
  const fold = value.fold === '-' || value.fold === '+' ? value.fold : '';
  const title = typeof value.title === 'string' ? value.title.replace(/[\r\n]+/g, ' ') : '';
  return { type, fold, title };
}

/**
 * An Obsidian callout or GitHub alert (`> [!note] Title`): a quote with a type, an optional fold
 * marker and title, holding any blocks, callouts too (docs/PRODUCT.md, "Markdown").
 */
export const Callout = Node.create({
  name: CALLOUT,
  group: 'block',
  content: 'block+',
  defining: true,

  addAttributes() {
    return {
      type: { default: 'note', rendered: false },
      fold: { default: '', rendered: false },
      title: { default: '', rendered: false },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'div[data-callout]',
        getAttrs: (element) =>
          calloutAttrs({
            type: element.getAttribute('data-callout'),
            fold: element.getAttribute('data-fold'),
            title: element.getAttribute('data-title'),
          }),
      },
    ];
  },

  renderHTML({ node }) {
    const { type, fold, title } = calloutAttrs(node.attrs);
    return ['div', { 'data-callout': type, 'data-fold': fold, 'data-title': title }, 0];
  },

  addCommands() {
    return {
      setCallout:
        (attrs) =>
        ({ commands }) =>
          commands.wrapIn(this.name, calloutAttrs(attrs ?? {})),
    };
  },
});
