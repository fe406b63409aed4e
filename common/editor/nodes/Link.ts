import { Mark, mergeAttributes } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { isAllowedLinkUrl } from '../url.ts';

/** The attributes a link command may set. */
export interface LinkAttributes {
  href: string;
  target?: string | null;
  rel?: string | null;
  class?: string | null;
  title?: string | null;
}

/** Options of {@link Link}. */
export interface LinkOptions {
  /** Attributes every rendered link gets; null leaves one out. */
  HTMLAttributes: Record<string, unknown>;
  /** A click on a link selects the whole link, so that the link menu edits all of it. */
  enableClickSelection: boolean;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    inkwellLink: {
      /** Sets a link on the selection; refused for a URL that the link rule forbids. */
      setLink: (attributes: LinkAttributes) => ReturnType;
      /** Toggles a link on the selection (the whole link when the cursor is inside one). */
      toggleLink: (attributes?: LinkAttributes) => ReturnType;
      /** Removes the link around the selection or cursor. */
      unsetLink: () => ReturnType;
    };
  }
}

/**
 * The link mark, in place of Tiptap's: the same name, attributes, HTML and commands, without its
 * URL finder (linkifyjs). That finder only serves autolinking and linking pasted URLs, both off
 * in Inkwell (docs/PRODUCT.md "Links and URLs": a link is what the writer made one), yet the
 * page had to download it before showing a document. The schema is unchanged: the server
 * validates stored documents against it (Link.test.ts keeps the spec).
 */
export const Link = Mark.create<LinkOptions>({
  name: 'link',
  // Tiptap's: outermost of the marks, so that a link wraps bold text and not the reverse.
  priority: 1000,
  keepOnSplit: false,
  exitable: true,
  // Typing at a link's end does not extend it.
  inclusive: false,

  addOptions() {
    return {
      // Markdown keeps no target, rel or class; an explicit one survives as an <a> tag.
      HTMLAttributes: { target: null, rel: null, class: null },
      enableClickSelection: true,
    };
  },

  addAttributes() {
    return {
      href: {
        default: null,
        parseHTML: (element) => element.getAttribute('href'),
      },
      target: { default: null },
      rel: { default: null },
      class: { default: null },
      title: { default: null },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'a[href]',
        getAttrs: (dom) => {
          const href = dom.getAttribute('href');
          return href && isAllowedLinkUrl(href) ? null : false;
        },
      },
    ];
  },

  renderHTML({ HTMLAttributes }) {
    // Only text reaches the page: a value of another type (a list holding a script URL, in
    // content stored before attributeTypes.ts) would be written as its text, so it is left out.
    const attrs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(HTMLAttributes)) {
      attrs[name] = typeof value === 'string' ? value : null;
    }
    // A forbidden URL that got in anyway is rendered without its target, never as a live link.
    if (typeof attrs.href === 'string' && !isAllowedLinkUrl(attrs.href)) attrs.href = '';
    return ['a', mergeAttributes(this.options.HTMLAttributes, attrs), 0];
  },

  addCommands() {
    return {
      setLink:
        (attributes) =>
        ({ chain }) =>
          isAllowedLinkUrl(attributes.href) && chain().setMark(this.name, attributes).run(),
      toggleLink:
        (attributes) =>
        ({ chain }) =>
          !(attributes?.href && !isAllowedLinkUrl(attributes.href)) &&
          chain().toggleMark(this.name, attributes, { extendEmptyMarkRange: true }).run(),
      unsetLink:
        () =>
        ({ chain }) =>
          chain().unsetMark(this.name, { extendEmptyMarkRange: true }).run(),
    };
  },

  addProseMirrorPlugins() {
    if (!this.options.enableClickSelection) return [];
    const editor = this.editor;
    const name = this.name;
    return [
      new Plugin({
        key: new PluginKey('handleClickLink'),
        props: {
          handleClick: (view, _pos, event) => {
            if (event.button !== 0 || !view.editable) return false;
            const target = event.target instanceof Element ? event.target : null;
            const link = target?.closest('a');
            // Only links inside this editor: a node view may hold other elements.
            if (!link || !view.dom.contains(link)) return false;
            return editor.commands.extendMarkRange(name);
          },
        },
      }),
    ];
  },
});
