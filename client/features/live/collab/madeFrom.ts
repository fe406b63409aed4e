import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type * as Y from 'yjs';

/** A made document's fragment, still empty: what it is to hold and how it gets built. */
interface Unbuilt {
  content: ProseMirrorNode;
  build: () => void;
  /** Builds it in slices that leave typing free (see buildMadeInSlices), when it can. */
  buildInSlices?: () => Promise<void>;
  /** The build in slices under way. */
  slicing?: Promise<void>;
  /** An editor shows the content and builds the fragment from what it shows (see buildWith). */
  shown: boolean;
}

const unbuilt = new WeakMap<Y.XmlFragment, Unbuilt>();

/**
 * Notes that the empty `fragment` of a document made in this tab (newDocumentState.ts) is to
 * hold `content`, written by `build` when {@link buildMade} asks: converting a large import into
 * Yjs takes about as long as drawing it, so its editor is drawn from `content` first
 * (ChunkedYBinding.startUnbuilt) and the fragment built once the page is quiet.
 */
export function noteUnbuilt(
  fragment: Y.XmlFragment,
  content: ProseMirrorNode,
  build: () => void,
): void {
  unbuilt.set(fragment, { content, build, shown: false });
}

/**
 * The content `fragment` is to hold while it is not built yet and no editor shows it; else null.
 * When an editor shows it already (a second editor made on the document, such as after it
 * turned read-only), the fragment is built now from what that one shows, typing included, and
 * the new editor reads it.
 */
export function unbuiltContent(fragment: Y.XmlFragment): ProseMirrorNode | null {
  const entry = unbuilt.get(fragment);
  if (entry?.shown) {
    buildMade(fragment);
    return null;
  }
  return entry?.content ?? null;
}

/**
 * The editor showing `fragment`'s content builds it instead, from its own document: that holds
 * the edits typed before the build too.
 */
export function buildWith(
  fragment: Y.XmlFragment,
  build: () => void,
  buildInSlices?: () => Promise<void>,
): void {
  const entry = unbuilt.get(fragment);
  if (!entry) return;
  entry.build = build;
  entry.buildInSlices = buildInSlices;
  entry.shown = true;
}

/** Builds `fragment` if it is a made document's, not built yet: before its state is read or kept. */
export function buildMade(fragment: Y.XmlFragment): void {
  const entry = unbuilt.get(fragment);
  if (!entry) return;
  unbuilt.delete(fragment);
  entry.build();
}

/**
 * Builds `fragment` if it is a made document's, not built yet, in slices that leave every frame
 * free for typing when the editor showing it can (ChunkedYBinding.buildInSlices): after a large
 * import, the page builds its Yjs document while the writer types. Resolves once it is built;
 * {@link buildMade} meanwhile finishes it at once.
 */
export function buildMadeInSlices(fragment: Y.XmlFragment): Promise<void> {
  const entry = unbuilt.get(fragment);
  if (!entry) return Promise.resolve();
  if (!entry.buildInSlices) {
    buildMade(fragment);
    return Promise.resolve();
  }
  entry.slicing ??= entry.buildInSlices().then(() => {
    if (unbuilt.get(fragment) === entry) unbuilt.delete(fragment);
  });
  return entry.slicing;
}
