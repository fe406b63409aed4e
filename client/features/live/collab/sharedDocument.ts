import type { AnyExtension } from '@tiptap/core';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { createObservable, type Observable } from '../../../lib/observable.ts';
import { whenQuiet } from '../../../lib/schedule.ts';
import type { SaveStatus } from '../persistence/saveStatus.ts';
import { collabStatus, type CollabState } from './collabStatus.ts';
import type { CaretUser } from './CollaborationCarets.ts';
import { collabExtensions, connectDocument, watchEnd, type CollabConnection } from './connect.ts';
import { ENDED_STATUS, type ConnectionEnd } from './connectionEnd.ts';
import { forgetLocalCopy, localCopyName } from './localCopies.ts';
import { buildNewDocumentInSlices } from './newDocumentState.ts';
import { checkLocalCopy } from './localCopyCheck.ts';

/** How the first sync with the server ended. */
export interface SharedReady {
  /** The server admitted this connection read-only: the editor must not edit. */
  readOnly: boolean;
}

/** Options of {@link openSharedDocument}. */
export interface SharedDocumentOptions {
  documentId: string;
  /** The signed-in person: this device's copy is kept per person and document. */
  userId: string;
  /** Tells the writer something they should know (a toast), such as a device copy set aside. */
  onNotice?: (message: string) => void;
  /**
   * The server ended the connection for good (connectionEnd.ts): the socket is closed and not
   * reopened; the editor must stop editing. For `refused-update` and `too-large`,
   * {@link SharedDocument.setAside} the device copy and open the document again; for
   * `access-changed`, open it again; for `revoked`, {@link SharedDocument.forgetLocalCopy}.
   */
  onEnd?: (end: ConnectionEnd) => void;
  /** This device's IndexedDB (a stand-in in tests). */
  indexedDB?: IDBFactory;
  /**
   * The document made in this tab, not yet on the server (newDocumentState.ts): edited at once,
   * connected by {@link SharedDocument.connectNow} once the server has it.
   */
  made?: Y.Doc;
}

/** Said when this device's copy could not be read and was deleted. */
export const LOCAL_COPY_LOST =
  "This device's copy of the document could not be read and was set aside; the document continues from the server.";

/**
 * One document open for live editing: the Hocuspocus connection (connect.ts), this device's copy
 * of the Y.Doc in IndexedDB (y-indexeddb: edits made offline survive reloads and crashes and are
 * merged when the socket is back), and the save state worked out from both. This module is
 * loaded with the document, so yjs and the provider stay out of the app's first download.
 */
export class SharedDocument {
  readonly connection: CollabConnection;
  /** Settles after the first sync with the server (the editor switches to the shared document then). */
  readonly ready: Promise<SharedReady>;
  /** Set once this device's copy is checked (localCopyCheck.ts). */
  private persistence: IndexeddbPersistence | null = null;
  private readonly state: CollabState = {
    connected: false,
    synced: false,
    unsynced: 0,
    keptLocally: false,
    refused: null,
  };
  private readonly saveStatus = createObservable<SaveStatus>({ kind: 'saving' });
  private readonly waiters = new Set<() => void>();
  private destroyed = false;
  /** Set once the server ended the connection for good: nothing reconnects it. */
  ended: ConnectionEnd | null = null;
  /** Writes to this device's copy not yet known to be committed. */
  private localWrites = 0;
  /**
   * Resolves once a document made in this tab is built into Yjs (in slices, after its device
   * copy opened), at once for any other: its state is read for the create after it.
   */
  readonly built: Promise<void>;
  /** Made in this tab and not yet connected: nothing opens the socket before {@link connectNow}. */
  private made: boolean;
  /** Cleared once this device's copy is forgotten: it is not opened again. */
  private keepsLocalCopy = true;
  private readonly options: SharedDocumentOptions;

  constructor(options: SharedDocumentOptions) {
    this.options = options;
    this.made = options.made !== undefined;
    this.connection = connectDocument(
      options.documentId,
      options.made ? { doc: options.made, autoConnect: false } : {},
    );
    const { provider, doc } = this.connection;
    const name = localCopyName(options.userId, options.documentId);
    const keep = async () => {
      const found = await checkLocalCopy(name, options.indexedDB);
      if (this.destroyed || !this.keepsLocalCopy) return;
      if (found === 'deleted') options.onNotice?.(LOCAL_COPY_LOST);
      this.keepLocally(name, doc);
      await this.persistence?.whenSynced.catch(() => undefined);
    };
    // A made document is built into Yjs once its editor is painted (madeFrom.ts), in slices. Its
    // copy is opened first, while the document is still empty: each slice is then stored as it
    // is written. Opened after the build, y-indexeddb first encoded the whole document in one
    // task (about 60 ms for a 1.2 MB import). Edits made meanwhile are in both.
    const made = options.made;
    this.built = made
      ? whenQuiet()
          .then(keep)
          // Without a device copy (no IndexedDB), the document is built all the same.
          .catch(() => undefined)
          .then(() => buildNewDocumentInSlices(made))
      : Promise.resolve();
    if (!made) void keep();
    provider.on('status', ({ status }: { status: string }) =>
      this.update({ connected: status === 'connected' }),
    );
    // A failed attempt before the first sync: the page is read-only until one succeeds.
    provider.on('disconnect', () => {
      if (!this.state.synced) this.update({ unreachable: true });
    });
    provider.on('unsyncedChanges', ({ number }: { number: number }) =>
      this.update({ unsynced: number }),
    );
    provider.on('synced', () => this.update({ synced: true }));
    watchEnd(this.connection, (end) => {
      this.ended = end;
      this.update({ connected: false, refused: ENDED_STATUS[end] ?? null });
      // Nothing more will be acknowledged: whoever waits for the save goes on (the device copy
      // keeps the edits).
      this.release();
      options.onEnd?.(end);
    });
    this.ready = this.connection.synced.then(() => ({
      readOnly: provider.authorizedScope === 'readonly',
    }));
    // The provider does not notice the browser going offline until its socket times out:
    // closing it at once says "Offline" at once, and opening it when back sends the edits.
    window.addEventListener('offline', this.goOffline);
    window.addEventListener('online', this.goOnline);
    if (!navigator.onLine) this.goOffline();
  }

  /** Opens this device's copy; y-indexeddb first stores what the document holds by then. */
  private keepLocally(name: string, doc: CollabConnection['doc']): void {
    const persistence = new IndexeddbPersistence(name, doc);
    this.persistence = persistence;
    void persistence.whenSynced.then(
      () => this.update({ keptLocally: this.localWrites === 0 }),
      () => this.update({ keptLocally: false }),
    );
    // After y-indexeddb's own listener (added above), so that its write is queued first.
    doc.on('update', this.trackLocalWrite);
  }

  /** The save state for the status bar. */
  get status(): Observable<SaveStatus> {
    return this.saveStatus;
  }

  /** Whether an edit of this device is not yet stored by the server. */
  get hasUnsavedEdits(): boolean {
    return this.state.unsynced > 0;
  }

  /** Whether this device's IndexedDB copy holds every edit. */
  get isKeptLocally(): boolean {
    return this.state.keptLocally;
  }

  /** The editor extensions on this document (binding, undo per writer, carets). */
  extensions(user: CaretUser): AnyExtension[] {
    return collabExtensions(this.connection, user);
  }

  /** Resolves once the server has stored every edit (or the document is closed). */
  whenSaved(): Promise<void> {
    if (!this.hasUnsavedEdits || this.destroyed || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  /** Reconnects at once (as when the browser is back online). */
  retryNow(): void {
    if (this.made) return;
    if (!this.destroyed && !this.ended && !this.state.connected) void this.socket().connect();
  }

  /** Opens the socket of a document made in this tab, once the server has it. */
  connectNow(): void {
    this.made = false;
    if (navigator.onLine) this.retryNow();
  }

  /**
   * After the server refused an update this document holds: closes it and moves this device's
   * copy out of the way, returning its content (and this page's) as one Yjs update, for
   * the caller to keep somewhere recoverable. A document opened again then starts from the
   * server's state alone.
   */
  async setAside(): Promise<Uint8Array> {
    const persistence = this.persistence;
    let records: Uint8Array[] = [];
    const db = persistence?.db;
    if (db) {
      records = await new Promise<Uint8Array[]>((resolve) => {
        try {
          const read = db.transaction(['updates'], 'readonly').objectStore('updates').getAll();
          read.onsuccess = () =>
            resolve((read.result as unknown[]).filter((r) => r instanceof Uint8Array));
          read.onerror = () => resolve([]);
        } catch {
          resolve([]);
        }
      });
    }
    // What this page holds includes edits not yet written to IndexedDB.
    records.push(Y.encodeStateAsUpdate(this.connection.doc));
    const merged = Y.mergeUpdates(records);
    this.destroy();
    await persistence?.clearData().catch(() => undefined);
    return merged;
  }

  /** Everything this page holds of the document (device copy included), as one Yjs update. */
  heldState(): Uint8Array {
    return Y.encodeStateAsUpdate(this.connection.doc);
  }

  /**
   * Deletes this device's copy, once the document is no longer open to this person; the page
   * keeps showing what it holds, read-only (the connection has ended).
   */
  async forgetLocalCopy(): Promise<void> {
    this.keepsLocalCopy = false;
    this.connection.doc.off('update', this.trackLocalWrite);
    const persistence = this.persistence;
    this.persistence = null;
    // An open database blocks its deletion.
    await persistence?.destroy();
    await forgetLocalCopy(
      this.options.userId,
      this.options.documentId,
      this.options.indexedDB ?? indexedDB,
    );
  }

  /** Closes the connection and this device's copy (which stays in IndexedDB). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    window.removeEventListener('offline', this.goOffline);
    window.removeEventListener('online', this.goOnline);
    this.connection.doc.off('update', this.trackLocalWrite);
    this.persistence?.destroy().catch(() => undefined);
    this.connection.destroy();
    this.release();
  }

  /**
   * Follows y-indexeddb's write of an update, which it does not report: a transaction on the same
   * store, opened after its write, completes only once that write is committed (IndexedDB runs
   * transactions with overlapping scopes in order). Until then the edit is not "kept".
   */
  private readonly trackLocalWrite = (_update: Uint8Array, origin: unknown) => {
    const db = this.persistence?.db;
    if (!db || origin === this.persistence || this.destroyed) return;
    this.localWrites += 1;
    this.update({ keptLocally: false });
    const done = (kept: boolean) => {
      this.localWrites -= 1;
      this.update({ keptLocally: kept && this.localWrites === 0 });
    };
    try {
      const tx = db.transaction(['updates'], 'readonly');
      tx.oncomplete = () => done(true);
      tx.onerror = tx.onabort = () => done(false);
    } catch {
      done(false);
    }
  };

  private socket() {
    return this.connection.provider.configuration.websocketProvider;
  }

  private readonly goOffline = () => {
    this.socket().disconnect();
    this.update({ connected: false, unreachable: true });
  };

  private readonly goOnline = () => this.retryNow();

  private update(change: Partial<CollabState>): void {
    if (this.destroyed) return;
    Object.assign(this.state, change);
    this.saveStatus.set(sameOrNext(this.saveStatus.get(), collabStatus(this.state)));
    if (!this.hasUnsavedEdits) this.release();
  }

  private release(): void {
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }
}

/** The current status object when it says the same, so that listeners hear only changes. */
function sameOrNext(current: SaveStatus, next: SaveStatus): SaveStatus {
  return JSON.stringify(current) === JSON.stringify(next) ? current : next;
}

// With the shared document's code: a document made in this tab builds its Y.Doc here.
export { stateOf, stateOffThread, yDocOfNewDocument } from './newDocumentState.ts';

/** Opens `documentId` for live editing (see {@link SharedDocument}). */
export function openSharedDocument(options: SharedDocumentOptions): SharedDocument {
  return new SharedDocument(options);
}
