import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { AnyExtension } from '@tiptap/core';
import * as Y from 'yjs';
import { SyncFirstProvider } from '../../../../common/editor/collab/syncFirstProvider.ts';
import { Collaboration } from './Collaboration.ts';
import { CollaborationCarets, type CaretUser } from './CollaborationCarets.ts';
import { connectionEndOf, type CloseLike, type ConnectionEnd } from './connectionEnd.ts';

/** Where the server's Hocuspocus listens, on the app's own origin (the session cookie goes along). */
export const COLLAB_PATH = '/api/collab';
/** The XmlFragment holding the unchunked ProseMirror document (the server's name for it). */
export const CONTENT_FRAGMENT = 'default';

/** The WebSocket URL of {@link COLLAB_PATH} for a page at `location`. */
export function collabUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${COLLAB_PATH}`;
}

/** One open document on the server: its Y.Doc, the provider that syncs it, and its awareness. */
export interface CollabConnection {
  /** The shared document, held in memory. */
  doc: Y.Doc;
  /** Syncs `doc` and awareness with the server, reconnecting by itself. */
  provider: HocuspocusProvider;
  /** The content, for {@link Collaboration}. */
  fragment: Y.XmlFragment;
  /** Settles once the first sync with the server is done: create the editor then. */
  synced: Promise<void>;
  /** Closes the connection and frees the document. */
  destroy(): void;
}

/** Options of {@link connectDocument}. */
export interface ConnectOptions {
  /** Defaults to {@link collabUrl} of the page. */
  url?: string;
  /** A WebSocket implementation outside the browser (tests on Node). */
  WebSocketPolyfill?: unknown;
  /** The document to sync; a new, empty one when absent. */
  doc?: Y.Doc;
  /**
   * Whether to open the socket now (the default). A document made in this tab is edited before
   * the server has it: its socket opens once the create is answered (`websocketProvider.connect()`).
   */
  autoConnect?: boolean;
}

/**
 * Opens document `documentId` (its UUID is the Hocuspocus document name) at `/api/collab`.
 * The app opens it through sharedDocument.ts, which adds the device copy and the save state.
 */
export function connectDocument(
  documentId: string,
  options: ConnectOptions = {},
): CollabConnection {
  const doc = options.doc ?? new Y.Doc();
  // Holds back what is typed while a socket opens until the sync carries it (syncFirstProvider.ts).
  const provider = new SyncFirstProvider({
    url: options.url ?? collabUrl(window.location),
    name: documentId,
    document: doc,
    ...(options.WebSocketPolyfill ? { WebSocketPolyfill: options.WebSocketPolyfill } : {}),
    ...(options.autoConnect === false ? { autoConnect: false } : {}),
  });
  const synced = new Promise<void>((resolve) => {
    if (provider.isSynced) resolve();
    else provider.on('synced', () => resolve());
  });
  return {
    doc,
    provider,
    fragment: doc.getXmlFragment(CONTENT_FRAGMENT),
    synced,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

/**
 * The editor extensions for a connection (after `synced`, so that the editor opens with the
 * server's content): the binding with undo per writer, and the carets of the others. The editor
 * runs with `editorExtensions({ undoRedo: false })`.
 */
export function collabExtensions(connection: CollabConnection, user: CaretUser): AnyExtension[] {
  return [
    Collaboration.configure({ fragment: connection.fragment, openWhenMounted: true }),
    CollaborationCarets.configure({ awareness: connection.provider.awareness, user }),
  ];
}

/**
 * Calls `onEnd` once when the server ends the connection for a reason reconnecting would not
 * mend (connectionEnd.ts), and stops the provider reconnecting then: without this it reopens the
 * socket every few seconds, to be refused again (a signed-out page looping against 401, a
 * refused update sent again at every sync). Returns a function that stops watching.
 */
export function watchEnd(
  connection: Pick<CollabConnection, 'provider'>,
  onEnd: (end: ConnectionEnd) => void,
): () => void {
  const { provider } = connection;
  let ended = false;
  const end = (kind: ConnectionEnd) => {
    if (ended) return;
    ended = true;
    // One document per socket here (connectDocument makes a provider each): closing it and
    // turning off its reconnection ends this document only.
    provider.configuration.websocketProvider.disconnect();
    onEnd(kind);
  };
  const onClose = ({ event }: { event?: CloseLike }) => {
    const kind = connectionEndOf(event);
    if (kind) end(kind);
  };
  // A reconnect the server no longer admits (trashed while the socket was down).
  const onRefused = () => end('revoked');
  provider.on('close', onClose);
  provider.on('authenticationFailed', onRefused);
  return () => {
    provider.off('close', onClose);
    provider.off('authenticationFailed', onRefused);
  };
}
