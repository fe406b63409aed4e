import { Fragment, type Mark, type Node as ProseMirrorNode, type Schema } from '@tiptap/pm/model';

/**
 * `doc` made of the node and mark types of `schema`, which names the same types: each Tiptap
 * editor builds a schema of its own from the shared extensions, and ProseMirror tells types apart
 * by identity, so a document from the shared schema (the codec's, the checked server copy) is
 * rebuilt for the editor. One walk over the nodes, without writing and reading JSON again.
 */
export function rebuildInSchema(doc: ProseMirrorNode, schema: Schema): ProseMirrorNode {
  if (doc.type.schema === schema) return doc;
  // Marks without attributes are shared instances, and the codec reuses the rest per run.
  const marks = new Map<Mark, Mark>();
  const markIn = (mark: Mark): Mark => {
    let own = marks.get(mark);
    if (!own) {
      own = schema.mark(mark.type.name, mark.attrs);
      marks.set(mark, own);
    }
    return own;
  };
  const rebuild = (node: ProseMirrorNode): ProseMirrorNode => {
    const nodeMarks = node.marks.length > 0 ? node.marks.map(markIn) : undefined;
    if (node.isText) return schema.text(node.text ?? '', nodeMarks);
    const children: ProseMirrorNode[] = [];
    node.forEach((child) => children.push(rebuild(child)));
    const type = schema.nodes[node.type.name];
    if (!type) throw new RangeError(`The schema has no node type ${node.type.name}.`);
    return type.create(node.attrs, Fragment.fromArray(children), nodeMarks);
  };
  return rebuild(doc);
}
