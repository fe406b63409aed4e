import { Editor, type JSONContent } from '@tiptap/core';
import { prosemirrorToYXmlFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { withCarriedMarks } from '../../../../../common/editor/collab/inlineMarks.ts';
import { inkwellSchema } from '../../../../../common/editor/extensions.ts';
import { editorExtensions } from '../../../editor/editorExtensions.ts';
import { Collaboration } from '../Collaboration.ts';

/*
 * Test helpers only: Inkwell editors on their own Y.Docs, kept in step in memory by passing
 * each Y update to the others (what the server does), with no network.
 */

export const FRAGMENT = 'default';

/** A Y.Doc holding `json` (an unchunked document of the shared schema), as the server makes it. */
export function sharedDoc(json: JSONContent): Y.Doc {
  const doc = new Y.Doc();
  const node = withCarriedMarks(inkwellSchema().nodeFromJSON(json));
  prosemirrorToYXmlFragment(node, doc.getXmlFragment(FRAGMENT));
  return doc;
}

/** `count` Y.Docs holding the same copy of `json`, as writers who loaded it from the server. */
export function replicas(json: JSONContent, count: number): Y.Doc[] {
  const first = sharedDoc(json);
  const state = Y.encodeStateAsUpdate(first);
  return [
    first,
    ...Array.from({ length: count - 1 }, () => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, state);
      return doc;
    }),
  ];
}

export function paragraphsJson(count: number, text = (i: number) => `Paragraph ${i}`): JSONContent {
  return {
    type: 'doc',
    content: Array.from({ length: count }, (_, i) => ({
      type: 'paragraph',
      content: [{ type: 'text', text: text(i) }],
    })),
  };
}

/**
 * An editor with the app's extensions (its own undo off) bound to `doc`; with `openWhenMounted`,
 * made empty as the page makes it, until openSharedDocument (openWhenMounted.ts).
 */
export function collabEditor(
  doc: Y.Doc,
  onRepair: (problem: string) => void = () => undefined,
  openWhenMounted = false,
): Editor {
  const noop = () => undefined;
  return new Editor({
    element: document.createElement('div'),
    extensions: [
      ...editorExtensions({
        markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
        undoRedo: false,
      }),
      Collaboration.configure({
        fragment: doc.getXmlFragment(FRAGMENT),
        onRepair,
        openWhenMounted,
      }),
    ],
  });
}

const REMOTE = 'test-network';

/**
 * Connects Y.Docs: an update made on one is applied to the others, at once or, while `held`,
 * when `flush` is called (two writers typing at the same moment).
 */
export function network(docs: readonly Y.Doc[]): {
  hold(): void;
  flush(): void;
  /** Updates each doc sent. */
  sent: Map<Y.Doc, Uint8Array[]>;
} {
  let held = false;
  const queue: [Y.Doc, Uint8Array][] = [];
  const sent = new Map<Y.Doc, Uint8Array[]>(docs.map((doc) => [doc, []]));
  const deliver = (from: Y.Doc, update: Uint8Array) => {
    for (const to of docs) if (to !== from) Y.applyUpdate(to, update, REMOTE);
  };
  // Bring every doc to the same state first.
  for (const a of docs)
    for (const b of docs) if (a !== b) Y.applyUpdate(b, Y.encodeStateAsUpdate(a), REMOTE);
  for (const doc of docs) {
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === REMOTE) return;
      sent.get(doc)?.push(update);
      if (held) queue.push([doc, update]);
      else deliver(doc, update);
    });
  }
  return {
    hold: () => {
      held = true;
    },
    flush: () => {
      held = false;
      for (const [from, update] of queue.splice(0)) deliver(from, update);
    },
    sent,
  };
}
