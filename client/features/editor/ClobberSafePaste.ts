import { Extension } from '@tiptap/core';
import {
  DOMParser,
  Fragment,
  Slice,
  type Mark,
  type Node as ProseMirrorNode,
  type ParseOptions,
  type Schema,
} from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { schemaAttributes } from '../../../common/editor/attributeTypes.ts';

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

/** `mark` with its attributes of their types (see {@link typedFragment}). */
function typedMark(mark: Mark): Mark {
  const attrs = schemaAttributes(mark.type.name, mark.attrs, true);
  return attrs === mark.attrs ? mark : mark.type.create(attrs);
}

/** `node` and its descendants with their attributes of their types (see {@link typedFragment}). */
function typedNode(node: ProseMirrorNode): ProseMirrorNode {
  const marks = node.marks.map(typedMark);
  const marksChanged = marks.some((mark, i) => mark !== node.marks[i]);
  if (node.isText) return marksChanged ? node.mark(marks) : node;
  const attrs = schemaAttributes(node.type.name, node.attrs, true);
  const content = typedFragment(node.content);
  if (!marksChanged && attrs === node.attrs && content === node.content) return node;
  return node.type.create(attrs, content, marks);
}

/**
 * `fragment` with every attribute of the type the server checks (attributeTypes.ts): Tiptap reads
 * an HTML attribute it has no rule for as a number or boolean when it looks like one
 * (`title="2024"` as 2024), and the server would refuse the edit, and the device copy with it.
 */
function typedFragment(fragment: Fragment): Fragment {
  const children: ProseMirrorNode[] = [];
  let changed = false;
  fragment.forEach((child) => {
    const typed = typedNode(child);
    changed ||= typed !== child;
    children.push(typed);
  });
  return changed ? Fragment.from(children) : fragment;
}

/**
 * The schema's parser, reading pasted and dropped HTML only after {@link unwrapForms}, into
 * content whose attributes have their types.
 */
class ClipboardParser extends DOMParser {
  override parseSlice(dom: Node, options?: ParseOptions): Slice {
    if (dom instanceof Element) unwrapForms(dom);
    const slice = super.parseSlice(dom, options);
    const content = typedFragment(slice.content);
    return content === slice.content ? slice : new Slice(content, slice.openStart, slice.openEnd);
  }
}

/** A parser for HTML from the clipboard or a drop that no web page can make throw. */
export function clipboardParser(schema: Schema): DOMParser {
  return new ClipboardParser(schema, DOMParser.fromSchema(schema).rules);
}

/**
 * Pasted or dropped HTML is read with {@link clipboardParser}: a copied page with a form whose
 * controls clobber its properties pastes its text instead of throwing and pasting nothing, and
 * what it pastes has attributes of the types the server takes.
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
