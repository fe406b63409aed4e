import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import * as Y from 'yjs';

/** The content a fragment was built from, and the Y.Doc's state vector just after. */
interface Source {
  content: ProseMirrorNode;
  stateVector: Uint8Array;
}

const sources = new WeakMap<Y.XmlFragment, Source>();

/**
 * Notes that `fragment` was just built from `content` (newDocumentState.ts), so that the editor
 * binding can take `content` as its first document instead of reading the fragment back
 * (ChunkedYBinding.adoptDoc): the same document, converted a second time.
 */
export function noteMadeFrom(fragment: Y.XmlFragment, content: ProseMirrorNode): void {
  const doc = fragment.doc;
  if (doc) sources.set(fragment, { content, stateVector: Y.encodeStateVector(doc) });
}

/**
 * The content `fragment` was built from, while its Y.Doc holds nothing else (its state vector
 * is the one noted: no update, local or from a device copy, came after); null otherwise.
 */
export function madeFrom(fragment: Y.XmlFragment): ProseMirrorNode | null {
  const source = sources.get(fragment);
  const doc = fragment.doc;
  if (!source || !doc) return null;
  const now = Y.encodeStateVector(doc);
  const same =
    now.length === source.stateVector.length &&
    now.every((byte, i) => byte === source.stateVector[i]);
  return same ? source.content : null;
}
