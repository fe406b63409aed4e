import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Transform } from '@tiptap/pm/transform';
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
 * `doc` itself when nothing changed.
 */
export function mapImageSources(
  doc: ProseMirrorNode,
  replace: (src: string) => string | null,
): ProseMirrorNode {
  const changes: { pos: number; src: string }[] = [];
  doc.descendants((node, pos) => {
    if (!isImage(node) || typeof node.attrs.src !== 'string') return;
    const src = replace(node.attrs.src);
    if (src !== null && src !== node.attrs.src) changes.push({ pos, src });
  });
  if (changes.length === 0) return doc;
  const transform = new Transform(doc);
  for (const { pos, src } of changes) {
    const node = transform.doc.nodeAt(pos);
    if (node) transform.setNodeMarkup(pos, undefined, { ...node.attrs, src });
  }
  return transform.doc;
}

/**
 * `doc` with its uploaded images' addresses (`/files/<id>`) made absolute on `origin`: a Markdown
 * file taken out of Inkwell then still shows them wherever its reader is signed in.
 */
export function withAbsoluteFileUrls(doc: ProseMirrorNode, origin: string): ProseMirrorNode {
  const prefix = fileUrl('');
  return mapImageSources(doc, (src) => (src.startsWith(prefix) ? `${origin}${src}` : null));
}
