import { Extension } from '@tiptap/core';
import { DOMParser, type ParseOptions, type Schema, type Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';

// Read through the prototypes: on a <form>, a control named "childNodes" or "replaceWith"
// shadows the element's own property of that name.
const childNodesOf = Object.getOwnPropertyDescriptor(Node.prototype, 'childNodes')?.get;
const { replaceWith } = Element.prototype;

/**
 * Replaces every <form> under `root` by its contents. A form's named controls shadow its DOM
 * properties (`<input name=nodeName>` makes `form.nodeName` that input), and ProseMirror's parser
 * then throws on the form; the schema has no forms, so only their contents were ever kept.
 */
export function unwrapForms(root: Element): void {
  for (const form of Array.from(root.querySelectorAll('form'))) {
    const children = childNodesOf ? Array.from(childNodesOf.call(form) as NodeListOf<Node>) : [];
    replaceWith.call(form, ...children);
  }
}

/** The schema's parser, reading pasted and dropped HTML only after {@link unwrapForms}. */
class ClipboardParser extends DOMParser {
  override parseSlice(dom: Node, options?: ParseOptions): Slice {
    if (dom instanceof Element) unwrapForms(dom);
    return super.parseSlice(dom, options);
  }
}

/** A parser for HTML from the clipboard or a drop that no web page can make throw. */
export function clipboardParser(schema: Schema): DOMParser {
  return new ClipboardParser(schema, DOMParser.fromSchema(schema).rules);
}

/**
 * Pasted or dropped HTML is read with {@link clipboardParser}: a copied page with a form whose
 * controls clobber its properties pastes its text instead of throwing and pasting nothing.
 */
export const ClobberSafePaste = Extension.create({
  name: 'clobberSafePaste',

  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('clobberSafePaste'),
        props: { clipboardParser: clipboardParser(this.editor.schema) },
      }),
    ];
  },
});
