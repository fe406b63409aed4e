import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { prosemirrorToYXmlFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { withCarriedMarks } from '../../../../common/editor/collab/inlineMarks.ts';
import { CONTENT_FRAGMENT } from './connect.ts';
import { buildMade, buildMadeInSlices, noteUnbuilt } from './madeFrom.ts';
import { base64Of, type Base64 } from '../../../lib/base64.ts';

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
  recordUpdates(doc);
  return doc;
}

/** The updates a made document emitted since it was made empty, until its state is read. */
const recorded = new WeakMap<Y.Doc, { updates: Uint8Array[]; stop: () => void }>();

/**
 * Keeps every update `doc` emits from now on: together they are its state, which a worker
 * merges (see {@link stateOffThread}). The build emits one per slice; the device copy has Yjs
 * encode them all the same.
 */
function recordUpdates(doc: Y.Doc): void {
  const updates: Uint8Array[] = [];
  const keep = (update: Uint8Array) => updates.push(update);
  doc.on('update', keep);
  recorded.set(doc, { updates, stop: () => doc.off('update', keep) });
}

/** The updates recorded for `doc`, and no more recording; null when none were. */
function takeUpdates(doc: Y.Doc): Uint8Array[] | null {
  const entry = recorded.get(doc);
  if (!entry) return null;
  recorded.delete(doc);
  entry.stop();
  return entry.updates;
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

/**
 * The whole state of `doc` as one Yjs update in base64, as the create request carries it,
 * encoded now: for a request that cannot wait (the page is going).
 */
export function stateOf(doc: Y.Doc): Base64 {
  buildNewDocument(doc);
  takeUpdates(doc);
  return base64Of(Y.encodeStateAsUpdate(doc));
}

/**
 * Below this many bytes of updates (a new empty document, a short file), the state is encoded
 * here: in well under a millisecond, where a worker takes tens to start and its code to load.
 */
const OFF_THREAD_MIN_BYTES = 64 * 1024;

/**
 * {@link stateOf}, merged by a worker from the updates `doc` emitted since it was made: encoding
 * the state of a 1.2 MB import takes the page one task of 100–200 ms, which a key pressed then
 * would wait for (docs/ARCHITECTURE.md "Live collaboration"). The state as it is when called;
 * where there are no workers (unit tests) or the worker fails, encoded here after all. `merge`
 * is the worker's and `minBytes` its threshold; a test passes its own.
 */
export async function stateOffThread(
  doc: Y.Doc,
  merge: (updates: Uint8Array[]) => Promise<Base64> = mergeInWorker,
  minBytes = OFF_THREAD_MIN_BYTES,
): Promise<Base64> {
  buildNewDocument(doc);
  const updates = takeUpdates(doc);
  if (!updates) return stateOf(doc);
  const bytes = updates.reduce((sum, update) => sum + update.byteLength, 0);
  if (bytes < minBytes) return base64Of(Y.encodeStateAsUpdate(doc));
  try {
    return await merge(updates);
  } catch {
    return base64Of(Y.encodeStateAsUpdate(doc));
  }
}

function mergeInWorker(updates: Uint8Array[]): Promise<Base64> {
  const worker = new Worker(new URL('./mergeState.worker.ts', import.meta.url), {
    type: 'module',
    name: 'new-document-state',
  });
  return new Promise<Base64>((resolve, reject) => {
    // The worker's stateFromUpdates.
    worker.onmessage = ({ data }: MessageEvent<Base64>) => resolve(data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error('The state could not be merged.'));
    };
    // Copied, not transferred: the device copy may still be writing them.
    worker.postMessage(updates);
  }).finally(() => worker.terminate());
}
