import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { prosemirrorToYXmlFragment } from '@tiptap/y-tiptap';
import { toBase64 } from 'lib0/buffer';
import * as Y from 'yjs';
import { withCarriedMarks } from '../../../../common/editor/collab/inlineMarks.ts';
import { CONTENT_FRAGMENT } from './connect.ts';
import { buildMade, buildMadeInSlices, noteUnbuilt } from './madeFrom.ts';

/**
 * The Y.Doc of a document made in this tab (an import), to hold its content as the server builds
 * a stored document's at its first open (server/collab/yjsContent.ts): y-tiptap's conversion,
 * with the marks of inline nodes other than text carried in their attribute (inlineMarks.ts).
 * Only for a document the server does not have yet: its create sends this state (see
 * {@link stateOf}), so nobody else can have seeded it. `content` is in the shared schema,
 * unchunked, as the Markdown codec built it. The fragment is built later (madeFrom.ts): by the
 * editor bound to it, from what it shows by then, or from `content` when no editor is.
 */
export function yDocOfNewDocument(content: ProseMirrorNode): Y.Doc {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(CONTENT_FRAGMENT);
  noteUnbuilt(fragment, content, () =>
    prosemirrorToYXmlFragment(withCarriedMarks(content), fragment),
  );
  return doc;
}

/**
 * Builds a made document's fragment if it is not built yet, in slices that leave typing free
 * (madeFrom.ts); resolves once it is built.
 */
export function buildNewDocumentInSlices(doc: Y.Doc): Promise<void> {
  return buildMadeInSlices(doc.getXmlFragment(CONTENT_FRAGMENT));
}

/** Builds a made document's fragment now, if it is not built yet. */
export function buildNewDocument(doc: Y.Doc): void {
  buildMade(doc.getXmlFragment(CONTENT_FRAGMENT));
}

/** The whole state of `doc` as one Yjs update in base64, as the create request carries it. */
export function stateOf(doc: Y.Doc): string {
  buildNewDocument(doc);
  return base64Of(Y.encodeStateAsUpdate(doc));
}

/**
 * `bytes` in base64: the browser's own `toBase64` where it has one (Chromium 140, Firefox 133,
 * Safari 18.2), lib0's elsewhere, which took about 60 ms for the state of a 1.2 MB import.
 */
function base64Of(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  return native ? native.call(bytes) : toBase64(bytes);
}
