import type { HocuspocusProvider } from '@hocuspocus/provider';
import { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import { afterEach, expect } from 'vitest';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../../common/api/documents.ts';
import type { TestClient } from '../../test/testServer.ts';
import { sessionCookieName } from '../../middleware/session.ts';
import { SyncFirstProvider } from '../../../common/editor/collab/syncFirstProvider.ts';
import { CONTENT_FIELD } from '../yjsContent.ts';

/** A live client as the editor runs it, in Node: one socket, one document. */
export interface CollabClient {
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  doc: Y.Doc;
  /** Resolves once the server synced the document, rejects when it refused it. */
  synced: Promise<void>;
  /** Resolves with the close code once the socket closed. */
  closed: Promise<number>;
  /** Resolves once every change made so far was acknowledged by the server ("Saved"). */
  saved(): Promise<void>;
  /** The text of the document's paragraphs, one string per top-level block. */
  blocks(): string[];
  destroy(): void;
}

/** The session cookie of a signed-in test client, as its browser would send it. */
export function cookieOf(client: { server: { url: string }; token?: string }): string {
  return `${sessionCookieName(client.server.url)}=${client.token ?? ''}`;
}

/** The `ws` WebSocket with the browser's cookie and Origin, as a page of `origin` would open it. */
export function socketClass(
  origin: string,
  cookie: string | undefined,
): new (url: string, protocols?: string | string[]) => WebSocket {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { Origin: origin, ...(cookie ? { Cookie: cookie } : {}) } });
    }
  };
}

/** Options of {@link connectClient}. */
export interface ConnectClientOptions {
  /** The client's document as it starts, e.g. a device copy holding edits the server lacks. */
  doc?: Y.Doc;
  /** The editor's provider unless a test needs HocuspocusProvider's own behaviour. */
  Provider?: typeof HocuspocusProvider;
}

/** Connects to `serverUrl`'s `/api/collab` with `cookie` and opens document `name`. */
export function connectClient(
  serverUrl: string,
  cookie: string | undefined,
  name: string,
  { doc = new Y.Doc(), Provider = SyncFirstProvider }: ConnectClientOptions = {},
): CollabClient {
  const origin = new URL(serverUrl).origin;
  const socket = new HocuspocusProviderWebsocket({
    url: `${origin.replace(/^http/, 'ws')}/api/collab`,
    WebSocketPolyfill: socketClass(origin, cookie),
    // A refused or closed socket stays closed, so the test sees it.
    maxAttempts: 1,
  });
  let closeWith: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (closeWith = resolve));
  socket.on('close', ({ event }: { event: { code: number } }) => closeWith(event.code));
  let settle: { resolve(): void; reject(error: Error): void } | undefined;
  const synced = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const provider = new Provider({
    websocketProvider: socket,
    name,
    document: doc,
    token: 'cookie',
    onSynced: () => settle?.resolve(),
    onAuthenticationFailed: ({ reason }) => settle?.reject(new Error(`refused: ${reason}`)),
  });
  // A test that expects a refusal may never ask whether it synced.
  synced.catch(() => undefined);
  provider.attach();
  void closed.then((code) => settle?.reject(new Error(`closed: ${code}`)));
  return {
    provider,
    socket,
    doc,
    synced,
    closed,
    saved: () =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (provider.unsyncedChanges === 0) {
            provider.off('unsyncedChanges', check);
            resolve();
          }
        };
        provider.on('unsyncedChanges', check);
        void closed.then((code) => reject(new Error(`closed before saved: ${code}`)));
        check();
      }),
    blocks: () =>
      doc
        .getXmlFragment(CONTENT_FIELD)
        .toArray()
        .map((block) => (block instanceof Y.XmlElement ? textOf(block) : '')),
    destroy: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

/** The text of an XmlElement's inline content (its elements' text included). */
export function textOf(element: Y.XmlElement): string {
  return element
    .toArray()
    .map((child) =>
      child instanceof Y.XmlText
        ? child.toString()
        : child instanceof Y.XmlElement
          ? textOf(child)
          : '',
    )
    .join('');
}

/** Appends a paragraph of `text` to the client's document, as typing a new line would. */
export function appendParagraph(client: CollabClient, text: string): void {
  const fragment = client.doc.getXmlFragment(CONTENT_FIELD);
  client.doc.transact(() => {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText(text)]);
    fragment.insert(fragment.length, [paragraph]);
  });
}

/** Waits until `check` holds, polling; for states that arrive over the socket. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a state');
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

/**
 * The live clients and sockets a test file opens, destroyed after each test: `live` connects
 * `client` to document `id`, `keep` hands over anything else to destroy, `closeAll` destroys them
 * now. Called once at the top of a test file.
 */
export function useLiveClients() {
  const open: Array<{ destroy(): void }> = [];
  const closeAll = () => {
    for (const thing of open.splice(0)) thing.destroy();
  };
  afterEach(closeAll);
  return {
    live(client: TestClient, id: string, options?: ConnectClientOptions): CollabClient {
      const collab = connectClient(client.server.url, cookieOf(client), id, options);
      open.push(collab);
      return collab;
    },
    keep<Thing extends { destroy(): void }>(thing: Thing): Thing {
      open.push(thing);
      return thing;
    },
    closeAll,
  };
}

/** A new document titled "Live", one paragraph per text, made by `client` through the API. */
export async function createDocument(
  client: TestClient,
  ...texts: string[]
): Promise<DocumentRecord> {
  const res = await client.request('POST', '/api/documents', {
    json: {
      title: 'Live',
      content: {
        type: 'doc',
        content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
      },
    },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { document: DocumentRecord }).document;
}
