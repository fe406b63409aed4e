import type { Node as ProseMirrorNode, Schema } from '@tiptap/pm/model';
import * as Y from 'yjs';
import { unchunked } from '../../editor/chunks/chunks.ts';
import { ChunkedYBinding } from './ChunkedYBinding.ts';
import { CONTENT_FRAGMENT } from './connect.ts';

/*
 * A device copy the server refused (a tampered record, or one from a client with another
 * schema) is set aside rather than sent again at every reconnect (docs/ARCHITECTURE.md "Live
 * collaboration"). Its content stays recoverable: kept in the device database's kept-aside
 * store, counted and cleared at sign-out like every other text only this device holds, and
 * offered to the writer as a Markdown download.
 */

/** The record kept aside for a refused device copy (deviceDatabase.ts `keptAside`). */
export interface SetAsideCopy {
  kind: 'live-copy';
  /** Everything the copy held, as one Yjs update. */
  update: Uint8Array;
}

/**
 * The set-aside copy's content as the editor would show it: read through the editor binding,
 * which repairs what the schema refuses instead of failing, so whatever text it held comes out.
 */
export function setAsideContent(update: Uint8Array, schema: Schema): ProseMirrorNode {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, update);
    const binding = new ChunkedYBinding(doc.getXmlFragment(CONTENT_FRAGMENT));
    return unchunked(binding.initialDoc(schema));
  } finally {
    doc.destroy();
  }
}
