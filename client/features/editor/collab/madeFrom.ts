import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type * as Y from 'yjs';

const sources = new WeakMap<Y.XmlFragment, ProseMirrorNode>();

/**
 * Notes that `fragment` was just built from `content` (newDocumentState.ts), so that the editor
 * binding can take `content` as its first document instead of reading the fragment back
 * (ChunkedYBinding.adoptDoc): the same document, converted a second time. Forgotten at the Y.Doc's
 * next update, local or remote, inserts and deletes alike (a delete leaves the state vector as it
 * was, so that could not tell).
 */
export function noteMadeFrom(fragment: Y.XmlFragment, content: ProseMirrorNode): void {
  const doc = fragment.doc;
  if (!doc) return;
  sources.set(fragment, content);
  doc.once('update', () => sources.delete(fragment));
}

/** The content `fragment` was built from, while its Y.Doc has had no update since; else null. */
export function madeFrom(fragment: Y.XmlFragment): ProseMirrorNode | null {
  return sources.get(fragment) ?? null;
}
