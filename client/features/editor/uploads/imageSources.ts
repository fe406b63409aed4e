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
 * `doc` with each node that `change` answers for replaced by its answer; `doc` itself when
 * nothing changed. The tree is rebuilt rather than transformed: a transform checks each parent's
 * content against the schema, and the unchunked document that export serialises holds blocks
 * straight under `doc`, which the editor's schema (chunks) does not allow.
 */
function mapNodes(
  doc: ProseMirrorNode,
  change: (node: ProseMirrorNode) => ProseMirrorNode | null,
): ProseMirrorNode {
  const map = (node: ProseMirrorNode): ProseMirrorNode => {
    const changed = change(node);
    if (changed) return changed;
    if (node.isLeaf) return node;
    let any = false;
    const children: ProseMirrorNode[] = [];
    node.forEach((child) => {
      const mapped = map(child);
      if (mapped !== child) any = true;
      children.push(mapped);
    });
    return any ? node.copy(Fragment.fromArray(children)) : node;
  };
  return map(doc);
}

/**
 * `doc` with each image's address replaced by what `replace` returns for it (null keeps it);
 * `doc` itself when nothing changed.
 */
export function mapImageSources(
  doc: ProseMirrorNode,
  replace: (src: string) => string | null,
): ProseMirrorNode {
  return mapNodes(doc, (node) => {
    if (!isImage(node) || typeof node.attrs.src !== 'string') return null;
    const src = replace(node.attrs.src);
    if (src === null || src === node.attrs.src) return null;
    return node.type.create({ ...node.attrs, src }, node.content, node.marks);
  });
}

/**
 * `doc` with each embed (`![[diagram.png]]`) that `resolve` finds a file for showing it: the
 * file's address goes into the embed's `src`, which the Markdown never holds, so the embed is
 * written back as it was. `resolve` gets the target as written; null leaves the embed alone.
 */
export function mapEmbedSources(
  doc: ProseMirrorNode,
  resolve: (target: string) => string | null,
): ProseMirrorNode {
  return mapNodes(doc, (node) => {
    if (node.type.name !== 'wikilink' || node.attrs.embed !== true) return null;
    const target = typeof node.attrs.target === 'string' ? node.attrs.target : '';
    const src = resolve(target);
    if (src === null || src === node.attrs.src) return null;
    return node.type.create({ ...node.attrs, src }, null, node.marks);
  });
}

/**
 * `doc` with its uploaded images' addresses (`/files/<id>`) made absolute on `origin`: a Markdown
 * file taken out of Inkwell then still shows them wherever its reader is signed in.
 */
export function withAbsoluteFileUrls(doc: ProseMirrorNode, origin: string): ProseMirrorNode {
  const prefix = fileUrl('');
  return mapImageSources(doc, (src) => (src.startsWith(prefix) ? `${origin}${src}` : null));
}
