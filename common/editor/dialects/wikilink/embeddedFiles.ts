import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { isFileUrl } from '../../../api/fileUrl.ts';

/** An embed's target as written and the uploaded file it shows. */
export interface EmbeddedFile {
  /** `diagram.png` of `![[diagram.png]]`. */
  target: string;
  /** `/files/<id>`. */
  src: string;
}

/**
 * The uploaded files a document's embeds show, each target once: the exports write them where
 * the embeds find them, as their Markdown names them but does not hold their address.
 */
export function embeddedFiles(doc: ProseMirrorNode): EmbeddedFile[] {
  const found = new Map<string, EmbeddedFile>();
  doc.descendants((node) => {
    if (node.type.name !== 'wikilink' || node.attrs.embed !== true) return;
    const { target, src } = node.attrs as { target: unknown; src: unknown };
    if (typeof target !== 'string' || !isFileUrl(src) || found.has(target)) return;
    found.set(target, { target, src });
  });
  return [...found.values()];
}
