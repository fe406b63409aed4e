import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { textOf } from '../server/collab/test/collabClient.ts';

export { textOf };

/** The XmlFragment holding a document's content (docs/ARCHITECTURE.md "Live collaboration"). */
export const CONTENT_FIELD = 'default';

/** Where a live client connects, and as whom. */
export interface CollabTarget {
  /** The WebSocket URL: `/api/collab` of Inkwell, or the bare Hocuspocus server. */
  wsUrl: string;
  /** The Origin header a page of the app would send. */
  origin: string;
}

/** One tab's live connection in Node: its own socket and Y.Doc, as the editor runs them. */
export interface LiveClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** Resolves once the server synced the document; rejects if it was refused or closed first. */
  synced: Promise<void>;
  /** Resolves once every change made so far was acknowledged ("Saved"). */
  saved(): Promise<void>;
  destroy(): void;
}

/** Opens document `name` at `target` with the session `cookie` (none for the bare server). */
export function openLive(target: CollabTarget, name: string, cookie?: string): LiveClient {
  const headers = { Origin: target.origin, ...(cookie ? { Cookie: cookie } : {}) };
  const socket = new HocuspocusProviderWebsocket({
    url: target.wsUrl,
    WebSocketPolyfill: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    },
    // A closed socket stays closed: a bench must see a refusal, not retry around it.
    maxAttempts: 1,
  });
  const doc = new Y.Doc();
  let settle: { resolve(): void; reject(error: Error): void } | undefined;
  const synced = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  synced.catch(() => undefined);
  let closedWith: number | undefined;
  socket.on('close', ({ event }: { event: { code: number } }) => {
    closedWith = event.code;
    settle?.reject(new Error(`closed: ${event.code}`));
  });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    document: doc,
    token: 'cookie',
    onSynced: () => settle?.resolve(),
    onAuthenticationFailed: ({ reason }) => settle?.reject(new Error(`refused: ${reason}`)),
  });
  provider.attach();
  return {
    doc,
    provider,
    synced,
    saved: () =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (closedWith !== undefined) reject(new Error(`closed before saved: ${closedWith}`));
          else if (provider.unsyncedChanges === 0) {
            provider.off('unsyncedChanges', check);
            resolve();
          }
        };
        provider.on('unsyncedChanges', check);
        check();
      }),
    destroy: () => {
      provider.destroy();
      socket.destroy();
      doc.destroy();
    },
  };
}

/** The texts of the document's top-level paragraphs. */
export function paragraphTexts(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .flatMap((block) =>
      block instanceof Y.XmlElement && block.nodeName === 'paragraph' ? [textOf(block)] : [],
    );
}

/**
 * Inserts a paragraph of `text` at `index` of the content, as pressing Enter there and typing
 * would; returns its text node, into which the writer then types.
 */
export function insertParagraph(doc: Y.Doc, index: number, text: string): Y.XmlText {
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  const node = new Y.XmlText(text);
  doc.transact(() => {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [node]);
    fragment.insert(Math.min(index, fragment.length), [paragraph]);
  });
  return node;
}
