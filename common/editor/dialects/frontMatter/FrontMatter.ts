import { Node } from '@tiptap/core';

/** The node name, also used by the Markdown codec and the editor's Properties panel. */
export const FRONT_MATTER = 'frontMatter';

/**
 * What a top-level container holds: front matter may only be its first child, so that a `---`
 * block further down stays a horizontal rule and the export writes it back at the very top.
 */
export const TOP_CONTENT = `${FRONT_MATTER}? block+`;

/** The attributes of a front matter node: its source, kept byte for byte (docs/PRODUCT.md, "Markdown"). */
export interface FrontMatterAttrs {
  /** The opening fence line as written (`---`, with any trailing blanks). */
  open: string;
  /** The lines between the fences, each with its newline ('' when there are none). */
  yaml: string;
  /** The closing fence line as written (`---` or `...`). */
  close: string;
  /** Whether a blank line separates it from the first block (docs sites often leave none). */
  spaced: boolean;
}

const FENCE = /^(?:---|\.\.\.)[ \t]*$/;

/** A fence attribute as stored: anything that would not read back as a fence becomes `---`. */
export function fenceLine(value: unknown): string {
  return typeof value === 'string' && FENCE.test(value) ? value : '---';
}

/** The document node of the stored schema: blocks, after optional front matter. */
export const InkwellDocument = Node.create({
  name: 'doc',
  topNode: true,
  content: TOP_CONTENT,
});

/**
 * YAML front matter at the top of a document, kept as its source text. The editor shows it as a
 * Properties panel (a node view on the client); without one it renders as preformatted text.
 */
export const FrontMatter = Node.create({
  name: FRONT_MATTER,
  atom: true,
  selectable: false,
  draggable: false,
  isolating: true,

  addAttributes() {
    return {
      open: { default: '---', rendered: false },
      yaml: { default: '', rendered: false },
      close: { default: '---', rendered: false },
      spaced: { default: true, rendered: false },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'pre[data-front-matter]',
        preserveWhitespace: 'full',
        getAttrs: (element) => ({ yaml: element.textContent ?? '' }),
      },
    ];
  },

  renderHTML({ node }) {
    return ['pre', { 'data-front-matter': '' }, String(node.attrs.yaml ?? '')];
  },
});
