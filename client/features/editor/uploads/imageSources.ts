import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { fileUrl } from '../../../../common/api/fileUrl.ts';

const isImage = (node: ProseMirrorNode) =>
  node.type.name === 'image' || node.type.name === 'inlineImage';

/** Every image address of `doc`, in document order (repeats included). */
export function imageSources(doc: ProseMirrorNode): string[] {
  const found: string[] = [];
  doc.descendants((node) => {
    if (isImage(node) && typeof node.attrs.src === 'string') found.push(node.attrs.src);
  });
  return found;
}

/**
 * `doc` with each image's address replaced by what `replace` returns for it (null keeps it);
 * `doc` itself when nothing changed. The tree is rebuilt rather than transformed: a transform
 * checks each parent's content against the schema, and the unchunked document that export
 * serialises holds blocks straight under `doc`, which the editor's schema (chunks) does not allow.
 */
export function mapImageSources(
  doc: ProseMirrorNode,
  replace: (src: string) => string | null,
): ProseMirrorNode {
  const map = (node: ProseMirrorNode): ProseMirrorNode => {
    if (isImage(node) && typeof node.attrs.src === 'string') {
      const src = replace(node.attrs.src);
      if (src === null || src === node.attrs.src) return node;
      return node.type.create({ ...node.attrs, src }, node.content, node.marks);
    }
    if (node.isLeaf) return node;
    let changed = false;
    const children: ProseMirrorNode[] = [];
    node.forEach((child) => {
      const mapped = map(child);
      if (mapped !== child) changed = true;
      children.push(mapped);
    });
    return changed ? node.copy(Fragment.fromArray(children)) : node;
  };
  return map(doc);
}

/**
 * `doc` with its uploaded images' addresses (`/files/<id>`) made absolute on `origin`: a Markdown
 * file taken out of Inkwell then still shows them wherever its reader is signed in.
 */
export function withAbsoluteFileUrls(doc: ProseMirrorNode, origin: string): ProseMirrorNode {
  const prefix = fileUrl('');
  return mapImageSources(doc, (src) => (src.startsWith(prefix) ? `${origin}${src}` : null));
}
