import { randomInt } from 'node:crypto';
import { Redis } from '@hocuspocus/extension-redis';
import {
  Hocuspocus,
  type Connection,
  type ConnectionConfiguration,
  type Document,
  type Extension,
} from '@hocuspocus/server';
import { updateYFragment } from '@tiptap/y-tiptap';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import { CLOSE } from '../../common/api/collabClose.ts';
import type { DocumentContent } from '../../common/api/documents.ts';
import type { CaretUser } from '../../common/editor/collab/caretUser.ts';
import { withCarriedMarks } from '../../common/editor/collab/inlineMarks.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import type { Database } from '../db/database.ts';
import { documentAccess, type DocumentAccess } from '../documents/access.ts';
import type { Logger } from '../logger.ts';
import type { VersionSummary } from '../../common/api/versions.ts';
import { VersionKeeper, VERSION_EVERY_MS, VERSION_PAUSE_MS } from '../versions/versionKeeper.ts';
import { VersionStore, type KeepRequest } from '../versions/versionStore.ts';
import { InvalidationBus, type Invalidation } from './invalidation.ts';
import { routePresence } from './presence.ts';
import { SchemaGuard } from './schemaGuard.ts';
import { UpdateLog } from './updateLog.ts';
import { contentOfYDoc, CONTENT_FIELD } from './yjsContent.ts';
import { canonicalText, YjsStore, type LoadedState } from './yjsStore.ts';

/** Who is on a socket; set at the upgrade, after the session cookie was checked. */
export interface CollabContext {
  userId: string;
  /** The session's key (the hash of its cookie), so that signing out finds its sockets. */
  sessionHash: string;
  /**
   * The account as the others see it (common/editor/collab/caretUser.ts): set as the `user` of
   * every presence state the socket publishes, whatever the client declared.
   */
  caret?: CaretUser;
  /** The socket itself, to close it whole when one of its documents fails (hocuspocus#1156). */
  socket?: WebSocket;
  /** The server's own connection (a REST read or write), which may load a trashed document. */
  internal?: boolean;
}

/** The context of the server's own direct connections to a document. */
const INTERNAL: CollabContext = { userId: '', sessionHash: '', internal: true };

/** Updates appended to a document's log before it is compacted without waiting for the debounce. */
export const COMPACT_AFTER_UPDATES = 500;
/** Hocuspocus's wait after the last change before a store (compaction, derived content). */
const STORE_DEBOUNCE_MS = 2_000;
/** The longest a document being edited goes without a store. */
const STORE_MAX_DEBOUNCE_MS = 10_000;
/** How often open sockets are checked against their session and their documents' access. */
const REVALIDATE_MS = 30_000;
/**
 * How long a socket the server closed may take to answer the close frame before it is cut: `ws`
 * would wait 30 s for a client that never answers, its frames dropped meanwhile (routes/collab.ts).
 */
const CLOSE_GRACE_MS = 2_000;
/** Documents one socket may name over its life; the editor opens one socket per document. */
export const MAX_DOCUMENTS_PER_SOCKET = 16;

/** A document name as the editor sends it: the document's id, lower case, nothing after it. */
const CANONICAL_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One open socket and what the engine knows of it. */
interface SocketEntry {
  socket: WebSocket;
  context: CollabContext;
  /** Hocuspocus's side of the socket, which holds its document connections. */
  client?: ReturnType<Hocuspocus['handleConnection']>;
}

/** What the engine keeps for each document loaded on this instance. */
interface LoadedDocument {
  guard: SchemaGuard;
  /** The snapshot row as last read or written, to tell whether another instance wrote since. */
  snapshot: Uint8Array;
  /** Update rows whose updates this document holds, to delete at the next compaction. */
  updateIds: string[];
  /**
   * `documents.content` as last written (canonical JSON text), or as read at load (made canonical
   * at the first compaction, canonicalText); null when none or unreadable.
   */
  contentText: string | null;
  readContent: DocumentContent | null;
  /** The snapshot's size plus the updates appended since: about the Yjs state's size. */
  bytes: number;
  /** The document's work, one at a time: checking an update and queueing it for the log; compaction. */
  queue: Promise<unknown>;
  /** A compaction after {@link COMPACT_AFTER_UPDATES} updates is waiting its turn. */
  compactionDue: boolean;
  /**
   * The account of each Yjs client recorded (or being recorded) for this document: what names
   * who wrote what, and what refuses an update writing as someone else's client.
   */
  clientOwners: Map<number, string>;
}

/**
 * Hocuspocus with one place that sees every failed load, whichever hook failed (ours, or another
 * extension's such as Redis's, which run before ours): every load goes through `createDocument`.
 */
class LoadWatchingHocuspocus extends Hocuspocus<CollabContext> {
  loadFailed: (name: string, context: CollabContext | undefined, error: unknown) => void = () =>
    undefined;

  override async createDocument(
    documentName: string,
    request: Request,
    socketId: string,
    connection: ConnectionConfiguration,
    context?: CollabContext,
  ): Promise<Document> {
    try {
      return await super.createDocument(documentName, request, socketId, connection, context);
    } catch (error) {
      this.loadFailed(documentName, context, error);
      throw error;
    }
  }
}

/** Thrown to refuse admission: no message, so Hocuspocus logs nothing and the client learns nothing. */
function refusal(): Error {
  return Object.assign(new Error(), { reason: 'permission-denied' });
}

/**
 * Live collaboration (docs/ARCHITECTURE.md "Live collaboration"): Hocuspocus as a library, fed
 * by the WebSocket route (server/routes/collab.ts), its documents kept in PostgreSQL by
 * {@link YjsStore}. "Saved" on the client is Hocuspocus's sync-status reply, which it sends right
 * after the update is applied; `beforeSync` appends the update to the log and applies it first,
 * so the reply only ever follows an update already on disk.
 */
export class CollabEngine {
  readonly hocuspocus: LoadWatchingHocuspocus;
  private readonly store: YjsStore;
  /** Where accepted updates are appended, several documents' in one commit (updateLog.ts). */
  private readonly log: UpdateLog;
  private readonly loaded = new Map<string, LoadedDocument>();
  /** What onLoadDocument read, until afterLoadDocument takes it. */
  private readonly reads = new Map<string, LoadedState>();
  private readonly sockets = new Map<WebSocket, SocketEntry>();
  private readonly revalidator: NodeJS.Timeout;
  private readonly accessOf: typeof documentAccess;
  private readonly maxStateBytes: number;
  /** Bytes a socket may have waiting to be sent before it is cut (a client that stopped reading). */
  private readonly maxUnsentBytes: number;
  /** Tells the other instances what was revoked here (with `REDIS_URL` only). */
  readonly invalidations: InvalidationBus | undefined;
  /** Versions of the documents (server/versions/), kept automatically by {@link keeper}. */
  readonly versions: VersionStore;
  private readonly keeper: VersionKeeper;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: {
      redisUrl: string | undefined;
      name?: string;
      /** Who may do what; `documentAccess` unless a test stands in for sharing. */
      access?: typeof documentAccess;
      /**
       * `DOCUMENT_MAX_BYTES`: a document's Yjs state may grow to twice this (it runs about the
       * size of the JSON; deleted text leaves small tombstones) before updates are refused.
       */
      documentMaxBytes?: number;
      /** When automatic versions are kept (versionKeeper.ts); shorter in tests. */
      versionTiming?: { pauseMs: number; everyMs: number };
    },
  ) {
    this.maxStateBytes = 2 * (options.documentMaxBytes ?? 5 * 1024 * 1024);
    // Room for the largest answer (a whole document's state) twice over.
    this.maxUnsentBytes = 2 * this.maxStateBytes;
    this.accessOf = options.access ?? documentAccess;
    this.store = new YjsStore(db);
    this.log = new UpdateLog(this.store);
    this.versions = new VersionStore(db);
    this.keeper = new VersionKeeper(
      this.versions,
      logger,
      options.versionTiming ?? { pauseMs: VERSION_PAUSE_MS, everyMs: VERSION_EVERY_MS },
    );
    const extensions: Extension[] = options.redisUrl ? [redisExtension(options.redisUrl)] : [];
    this.hocuspocus = new LoadWatchingHocuspocus({
      name: options.name ?? null,
      quiet: true,
      debounce: STORE_DEBOUNCE_MS,
      maxDebounce: STORE_MAX_DEBOUNCE_MS,
      extensions,
      onAuthenticate: async ({ documentName, context, connectionConfig }) => {
        const access = await this.access(context.userId, documentName);
        if (!access) throw refusal();
        connectionConfig.readOnly = access === 'read';
      },
      onLoadDocument: async ({ documentName, context, document }) => {
        // A failure here or in a later hook is handled by loadFailed. Read into Hocuspocus's own
        // document: nothing is returned for it to copy.
        const state = await this.store.load(documentName, {
          trashed: context.internal,
          into: document,
        });
        if (!state) throw new Error('The document is gone.');
        this.reads.set(documentName, state);
      },
      afterLoadDocument: async ({ documentName, document }) => {
        await this.track(documentName, document);
        // In a crowded document each person is sent the carets near theirs (presence.ts).
        routePresence(document);
      },
      beforeHandleAwareness: async ({ context, states }) => {
        // A client's presence (envelope.ts admits one state): the caret's name and colour are
        // the account's, so nobody poses as someone else. Other instances' (Redis) and the
        // server's own have no context and were set where they came in.
        const caret = context?.caret;
        if (!caret) return;
        for (const [id, state] of states) states.set(id, { ...objectOrEmpty(state), user: caret });
      },
      beforeSync: async ({ connection, document, documentName, type, payload }) => {
        // Sync step 2 (1) and update (2) carry changes; step 1 (0) only asks. A read-only
        // connection's changes are Hocuspocus's to drop: it applies, stores and sends none of
        // them and answers "not applied" (docs/ARCHITECTURE.md "Live collaboration").
        if (type === 0 || connection.readOnly) return;
        await this.accept(documentName, document, connection, payload);
      },
      onStoreDocument: async ({ documentName, document }) => {
        await this.compact(documentName, document);
      },
      beforeUnloadDocument: async ({ documentName }) => {
        // The last writer left: what they wrote since the last version is kept as one.
        await this.keeper.flush(documentName);
      },
      afterUnloadDocument: async ({ documentName }) => {
        this.loaded.get(documentName)?.guard.destroy();
        this.loaded.delete(documentName);
      },
    });
    this.hocuspocus.loadFailed = (name, context, error) => this.loadFailed(name, context, error);
    this.invalidations = options.redisUrl
      ? new InvalidationBus(options.redisUrl, logger, (invalidation) => {
          this.invalidated(invalidation).catch((error: unknown) =>
            this.logger.warn('Acting on an invalidation failed.', { err: error }),
          );
        })
      : undefined;
    this.revalidator = setInterval(() => {
      this.revalidate().catch((error: unknown) =>
        this.logger.warn('Checking live sockets failed.', { err: error }),
      );
    }, REVALIDATE_MS);
    this.revalidator.unref();
  }

  /**
   * A document failed to load, in any hook. hocuspocus#1156: a socket must not be left waiting
   * for a document that never comes (Hocuspocus would tell it `permission-denied`, as if it had
   * no access), so the whole socket closes with 1011 and the client reconnects and loads again;
   * and nothing read for the document is kept: the state `onLoadDocument` read, and what
   * `afterLoadDocument` set up when a later extension's hook failed after it.
   */
  private loadFailed(name: string, context: CollabContext | undefined, error: unknown): void {
    this.logger.warn('Loading a live document failed.', { documentName: name, err: error });
    this.reads.delete(name);
    if (!this.hocuspocus.documents.has(name)) {
      this.loaded.get(name)?.guard.destroy();
      this.loaded.delete(name);
    }
    if (context?.socket) this.end(context.socket, CLOSE.failed);
  }

  /**
   * Who may do what with `documentId`; a name that is not a document id, as the editor writes it
   * (lower case), is nobody's: another spelling of one id would open a second live copy of the
   * document, with its own schema check, that trashing it would not close.
   */
  private async access(userId: string, documentId: string): Promise<DocumentAccess> {
    return CANONICAL_NAME.test(documentId) ? this.accessOf(this.db, userId, documentId) : null;
  }

  /**
   * Whether a socket may send a message naming `name`: only a name as the editor writes it (no
   * `\0`: Hocuspocus reads `id\0anything` as another connection to document `id`, so one socket
   * could hold a document many times and be sent every update once per name), and at most
   * {@link MAX_DOCUMENTS_PER_SOCKET} names in a socket's life. Names are recorded in `names`.
   */
  static admitsName(names: Set<string>, name: string): boolean {
    if (name.includes('\0')) return false;
    if (names.has(name)) return true;
    if (names.size >= MAX_DOCUMENTS_PER_SOCKET) return false;
    names.add(name);
    return true;
  }

  /** Hands a socket, already upgraded behind the session and Origin checks, to Hocuspocus. */
  connect(
    socket: WebSocket,
    request: Request,
    context: CollabContext,
  ): ReturnType<Hocuspocus['handleConnection']> {
    const entry: SocketEntry = { socket, context: { ...context, socket } };
    this.sockets.set(socket, entry);
    socket.once('close', () => this.sockets.delete(socket));
    this.boundUnsent(socket);
    entry.client = this.hocuspocus.handleConnection(socket, request, entry.context);
    return entry.client;
  }

  /**
   * Cuts a socket whose unsent data passes {@link maxUnsentBytes}: a client that stops reading
   * (or asks for the whole document faster than it reads) would otherwise grow the server's
   * memory with every answer and every update sent to it.
   */
  private boundUnsent(socket: WebSocket): void {
    const send = socket.send.bind(socket);
    socket.send = ((data: Uint8Array, ...rest: unknown[]) => {
      if (socket.bufferedAmount + data.byteLength > this.maxUnsentBytes) {
        this.logger.warn('Cut a live socket that stopped reading.', {
          unsent: socket.bufferedAmount,
        });
        socket.terminate();
        return;
      }
      (send as (...args: unknown[]) => void)(data, ...rest);
    }) as WebSocket['send'];
  }

  /**
   * Ends a socket: closed with `close`, its document connections closed at once (frames it sends
   * after are dropped by the route), and cut after {@link CLOSE_GRACE_MS} if the client does not
   * answer the close frame. Every close the server decides goes through here.
   */
  end(socket: WebSocket, close: { code: number; reason: string }): void {
    if (socket.readyState === socket.CLOSED) return;
    if (socket.readyState !== socket.CLOSING) socket.close(close.code, close.reason);
    this.sockets.get(socket)?.client?.handleClose({ code: close.code, reason: close.reason });
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  /**
   * A session ended (signed out): its sockets here close at once with 4401, and every other
   * instance is told (Redis), which closes its own after checking the session is gone.
   */
  sessionEnded(sessionHash: string): void {
    this.closeSession(sessionHash);
    this.invalidations?.publish({ kind: 'session', sessionHash });
  }

  /**
   * The one entry for "who may open this document may have changed" (trashed, deleted forever,
   * a share or the link withdrawn or its role changed): the document's connections here and on
   * every other instance are checked against `documentAccess` now; those that lost access close
   * with `access-revoked`, those whose role moved between viewer and editor with
   * `access-changed` (both 4403). Call it after the change is committed.
   */
  async accessChanged(documentId: string): Promise<void> {
    this.invalidations?.publish({ kind: 'document', documentId });
    await this.recheckDocument(documentId);
  }

  /** What another instance published; the database decides, the message only says where to look. */
  private async invalidated(invalidation: Invalidation): Promise<void> {
    if (invalidation.kind === 'document') {
      await this.recheckDocument(invalidation.documentId);
      return;
    }
    const { sessionHash } = invalidation;
    if (![...this.sockets.values()].some(({ context }) => context.sessionHash === sessionHash)) {
      return;
    }
    if (!(await this.sessionLive(sessionHash))) this.closeSession(sessionHash);
  }

  private async sessionLive(sessionHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'SELECT 1 FROM sessions WHERE id_hash = $1 AND expires_at > now()',
      [sessionHash],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Closes every socket of a session here with 4401. */
  private closeSession(sessionHash: string): void {
    for (const { socket, context } of [...this.sockets.values()]) {
      if (context.sessionHash === sessionHash) this.end(socket, CLOSE.signedOut);
    }
  }

  /**
   * Checks each connection to `documentId` here against its person's access now: one query per
   * person, however many tabs and devices they have on it. A person who lost the document is
   * revoked; one whose role moved between viewer and editor is closed with `access-changed`, and
   * the editor reconnects to be admitted read-only or writable as the role now says (a
   * connection's `readOnly` is set once, at admission).
   */
  private async recheckDocument(documentId: string): Promise<void> {
    const document = this.hocuspocus.documents.get(documentId);
    if (!document) return;
    const people = new Set(
      document.getConnections().map((connection) => (connection.context as CollabContext).userId),
    );
    const accessOf = new Map<string, DocumentAccess>();
    for (const userId of people) accessOf.set(userId, await this.access(userId, documentId));
    // The connections as they are now: some may have come or gone during the queries.
    for (const connection of document.getConnections()) {
      const { userId } = connection.context as CollabContext;
      const access = accessOf.get(userId);
      if (access === undefined) continue;
      if (access === null) this.closeConnection(connection, CLOSE.revoked);
      else if ((access === 'read') !== connection.readOnly) {
        this.closeConnection(connection, CLOSE.accessChanged);
      }
    }
  }

  /**
   * Closes one document's connection: Hocuspocus's close message for that document (with the
   * reason), whose later messages on the socket are no longer applied; and the socket itself
   * with the code when it carries no other document (the editor opens one socket per document),
   * so the client sees the code.
   */
  private closeConnection(connection: Connection, close: { code: number; reason: string }): void {
    const socket = (connection.context as CollabContext).socket;
    connection.close({ code: close.code, reason: close.reason });
    if (!socket) return;
    const others = [...this.hocuspocus.documents.values()].some((document) =>
      document.getConnections().some((other) => other.webSocket === socket),
    );
    if (!others) this.end(socket, close);
  }

  /**
   * The safety net for a missed invalidation (Redis down, an instance reconnecting): every
   * {@link REVALIDATE_MS}, sockets are checked against their session and their documents' access.
   */
  async revalidate(): Promise<void> {
    const sessions = new Set([...this.sockets.values()].map(({ context }) => context.sessionHash));
    for (const sessionHash of sessions) {
      if (!(await this.sessionLive(sessionHash))) this.closeSession(sessionHash);
    }
    for (const name of [...this.hocuspocus.documents.keys()]) await this.recheckDocument(name);
  }

  /**
   * Replaces the live document's content with `content` as one Yjs change (y-tiptap's diff, as
   * an editor would make it), so it merges with what connected editors type; then stores it.
   * What it writes is `by`'s (see {@link change}).
   */
  async applyContent(
    documentId: string,
    content: DocumentContent,
    by: string | null = null,
  ): Promise<void> {
    // Marks on inline nodes other than text travel in an attribute (inlineMarks.ts).
    const carried = withCarriedMarks(inkwellSchema().nodeFromJSON(content));
    await this.change(
      documentId,
      (fragment, document) => {
        updateYFragment(document, fragment, carried, { mapping: new Map(), isOMark: new Map() });
      },
      by,
    );
  }

  /**
   * Makes a change of the server's own to the live document, from its live state (what editors
   * typed a moment ago included): `edit` runs inside one Yjs transaction, after the document's
   * earlier work, and what it changed is logged, sent to every editor and stored like an edit.
   * It is written by a Yjs client of its own, recorded as `by`'s, the person on whose behalf
   * the server makes it (null: nobody's), so that who wrote what names them.
   */
  async change(
    documentId: string,
    edit: (fragment: Y.XmlFragment, document: Y.Doc) => void,
    by: string | null = null,
  ): Promise<void> {
    const direct = await this.hocuspocus.openDirectConnection(documentId, INTERNAL);
    try {
      const document = direct.document;
      if (!document) throw new Error('The document did not load.');
      await this.serially(documentId, async (state) => {
        // A fresh client per change (Yjs lets a document change its client id, as Yjs itself
        // does on a clash): the server document's own wrote the first conversion, the owner's.
        let client = randomInt(2 ** 32);
        while (document.store.clients.has(client)) client = randomInt(2 ** 32);
        document.clientID = client;
        if (by !== null) {
          await this.versions.recordClients(documentId, by, [client]);
          state.clientOwners.set(client, by);
        }
        const updates: Uint8Array[] = [];
        const collect = (update: Uint8Array) => updates.push(update);
        document.on('update', collect);
        try {
          document.transact(() => edit(document.getXmlFragment(CONTENT_FIELD), document), {
            source: 'local',
          });
        } finally {
          document.off('update', collect);
        }
        if (updates.length > 0) {
          const ids = await this.store.appendAll(updates.map((update) => ({ documentId, update })));
          state.updateIds.push(...ids);
          // Counted as a writer's updates are, for the size limit.
          state.bytes += updates.reduce((sum, update) => sum + update.byteLength, 0);
          this.keeper.edited(documentId, document, null);
        }
      });
      await this.compact(documentId, document);
    } finally {
      await direct.disconnect();
    }
  }

  /**
   * Brings `documents.content` up to date with the document's Yjs state: stores it now if it is
   * loaded here with updates not yet compacted, or loads and compacts it if the log holds updates
   * that no instance folded in (a server killed mid-typing). Before a REST read of the document.
   */
  async flush(documentId: string): Promise<void> {
    const document = this.hocuspocus.documents.get(documentId);
    if (document) {
      if ((this.loaded.get(documentId)?.updateIds.length ?? 0) > 0) {
        await this.compact(documentId, document);
      }
      return;
    }
    const { rowCount } = await this.db.query(
      'SELECT 1 FROM document_yjs_updates WHERE document_id = $1 LIMIT 1',
      [documentId],
    );
    if (rowCount === 0) return;
    const direct = await this.hocuspocus.openDirectConnection(documentId, INTERNAL);
    try {
      if (direct.document) await this.compact(documentId, direct.document);
    } finally {
      await direct.disconnect();
    }
  }

  /**
   * Brings `documents.content` up to date for every document `userId` has open here, before a
   * read that goes by stored content across documents (which links name a renamed title): what
   * they typed a moment ago is in it.
   */
  async flushOpenedBy(userId: string): Promise<void> {
    for (const [name, document] of [...this.hocuspocus.documents]) {
      const opened = document
        .getConnections()
        .some((connection) => (connection.context as CollabContext).userId === userId);
      if (opened) await this.flush(name);
    }
  }

  /**
   * At start: folds in the update logs a stopped instance left, so that search, the list and
   * exports read every acknowledged edit without waiting for someone to open the document.
   */
  async recover(): Promise<void> {
    const { rows } = await this.db.query<{ document_id: string }>(
      'SELECT DISTINCT document_id FROM document_yjs_updates',
    );
    for (const { document_id: id } of rows) {
      await this.flush(id).catch((error: unknown) =>
        this.logger.warn('Recovering a live document failed.', { id, err: error }),
      );
    }
  }

  /**
   * Runs `read` on the live document as it is now (what editors typed a moment ago included);
   * `read` must not change it.
   */
  async readLive<T>(documentId: string, read: (document: Y.Doc) => Promise<T>): Promise<T> {
    const direct = await this.hocuspocus.openDirectConnection(documentId, INTERNAL);
    try {
      if (!direct.document) throw new Error('The document did not load.');
      return await read(direct.document);
    } finally {
      await direct.disconnect();
    }
  }

  /**
   * Keeps the document as it is now as a version by hand (named, or before a restore), from its
   * live state: what editors typed a moment ago is in it. Null when the document is gone.
   */
  async keepVersion(documentId: string, request: KeepRequest): Promise<VersionSummary | null> {
    const direct = await this.hocuspocus.openDirectConnection(documentId, INTERNAL);
    try {
      if (!direct.document) throw new Error('The document did not load.');
      return await this.keeper.keepNow(documentId, direct.document, request);
    } finally {
      await direct.disconnect();
    }
  }

  /**
   * Closes every socket, keeps the versions due and stores every loaded document, and lets go
   * of Redis.
   */
  async close(): Promise<void> {
    clearInterval(this.revalidator);
    this.invalidations?.close();
    for (const socket of [...this.sockets.keys()]) this.end(socket, CLOSE.stopping);
    await this.keeper.flushAll();
    await Promise.all(
      [...this.hocuspocus.documents].map(([name, document]) =>
        this.compact(name, document).catch((error: unknown) =>
          this.logger.warn('Storing a live document at shutdown failed.', { name, err: error }),
        ),
      ),
    );
    await this.hocuspocus.hooks('onDestroy', { instance: this.hocuspocus });
  }

  private async track(documentName: string, document: Document): Promise<void> {
    const state: LoadedDocument = {
      guard: new SchemaGuard(inkwellSchema(), () => Y.encodeStateAsUpdate(document)),
      snapshot: new Uint8Array(),
      updateIds: [],
      contentText: null,
      readContent: null,
      bytes: 0,
      queue: Promise.resolve(),
      compactionDue: false,
      // Read before the document takes updates, so the first one is checked against it.
      clientOwners: (await this.versions.writersOf(documentName)).userOfClient,
    };
    // What the load read is what the first compaction folds in.
    const loaded = this.reads.get(documentName);
    this.reads.delete(documentName);
    if (loaded) {
      state.snapshot = loaded.snapshot;
      state.updateIds = loaded.updateIds;
      state.readContent = loaded.content;
      state.bytes = loaded.bytes;
    }
    // The schema guard's copy is made once the document's first sync has been answered: a large
    // document's takes as long as loading it (an update arriving first makes it at once).
    setImmediate(() => {
      if (this.loaded.get(documentName) === state) state.guard.prepare();
    });
    // Updates from other instances (Redis) and from the server: the shadow follows them, and
    // what two instances' valid updates break together is repaired here.
    document.on('update', (update: Uint8Array) => {
      const repair = state.guard.follow(update);
      if (repair) this.applyRepair(documentName, document, repair);
    });
    this.loaded.set(documentName, state);
  }

  /**
   * Logs and applies a repair the schema guard made of a merge it did not check (Redis): sent to
   * every editor, here and on the other instances, like an edit.
   */
  private applyRepair(documentName: string, document: Document, repair: Uint8Array): void {
    void this.serially(documentName, async (state) => {
      const [id] = await this.store.appendAll([{ documentId: documentName, update: repair }]);
      if (id !== undefined) state.updateIds.push(id);
      state.bytes += repair.byteLength;
      Y.applyUpdate(document, repair, { source: 'local' });
    }).catch((error: unknown) => {
      this.loaded.get(documentName)?.guard.reset();
      this.logger.warn('Repairing a live document failed.', { documentName, err: error });
    });
  }

  /** Runs `work` after the document's earlier work, one at a time. */
  private serially<T>(
    documentName: string,
    work: (state: LoadedDocument) => Promise<T>,
  ): Promise<T> {
    const state = this.loaded.get(documentName);
    if (!state) return Promise.reject(new Error('The document is not loaded.'));
    const run = state.queue.then(() => work(state));
    state.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * An update from a client: checked against the schema, appended to the log, applied. Throwing
   * here stops Hocuspocus before it applies, broadcasts or acknowledges anything.
   *
   * Updates of a document are checked one at a time, in order, each against the shadow as the
   * ones before left it; the wait for the commit is not part of that turn, so the next update of
   * the document, from another writer, is checked meanwhile and shares the commit (updateLog.ts).
   * An update is applied (and so acknowledged and sent to the others) only once committed.
   */
  private async accept(
    documentName: string,
    document: Document,
    connection: Connection,
    update: Uint8Array,
  ): Promise<void> {
    const { userId } = connection.context as CollabContext;
    // Which clients' structs it brings, read once: to refuse writing as another, then to record.
    const writers = clientsOf(update);
    const checked = await this.serially(documentName, async (state) => {
      if (writesAsAnother(state, document, userId, writers)) {
        this.logger.warn('Refused a live update written as another account’s Yjs client.', {
          documentName,
        });
        const socket = (connection.context as CollabContext).socket;
        if (socket) this.end(socket, CLOSE.refused);
        throw new Error('The update writes as another account’s Yjs client.');
      }
      const verdict = state.guard.check(update);
      if (verdict.problem) {
        this.logger.warn('Refused a live update.', { documentName, problem: verdict.problem });
        const socket = (connection.context as CollabContext).socket;
        if (socket) this.end(socket, CLOSE.refused);
        throw new Error(verdict.problem);
      }
      if (!verdict.changed) return null;
      // Valid as its writer made it, it met another writer's change the schema refuses together:
      // stored, applied and sent with its repair, as one update.
      const accepted = verdict.repair ? Y.mergeUpdates([update, verdict.repair]) : update;
      if (state.bytes + accepted.byteLength > this.maxStateBytes) {
        this.logger.warn('Refused a live update: the document would be too large.', {
          documentName,
        });
        // The shadow took the update; it starts again from the live document.
        state.guard.reset();
        const socket = (connection.context as CollabContext).socket;
        if (socket) this.end(socket, CLOSE.tooLarge);
        throw new Error('The document would be too large.');
      }
      state.bytes += accepted.byteLength;
      const committed = this.log.append(documentName, accepted);
      // Awaited below, after this turn ends; a failure meanwhile is no unhandled rejection.
      committed.catch(() => undefined);
      return { state, committed, accepted };
    });
    if (!checked) return;
    const { state, committed, accepted } = checked;
    let id: string;
    try {
      id = await committed;
    } catch (error) {
      state.bytes -= accepted.byteLength;
      // The shadow took an update the document will not have; it starts again from the document.
      state.guard.reset();
      throw error;
    }
    // The id joins the list in the same turn as the update joins the document, so a compaction
    // never deletes the row of an update its snapshot lacks.
    state.updateIds.push(id);
    Y.applyUpdate(document, accepted, { source: 'connection', connection });
    if (writers) this.recordClients(documentName, state, userId, writers);
    this.keeper.edited(documentName, document, userId);
    if (state.updateIds.length >= COMPACT_AFTER_UPDATES && !state.compactionDue) {
      state.compactionDue = true;
      void this.compact(documentName, document).catch((error: unknown) =>
        this.logger.warn('Compacting a live document failed.', { documentName, err: error }),
      );
    }
  }

  /**
   * Records, off the keystroke's path, the account behind the Yjs clients that wrote an update
   * (`writers`, {@link clientsOf}) and were not recorded yet: what names a version's authors
   * and who wrote what (server/versions/).
   */
  private recordClients(
    documentName: string,
    state: LoadedDocument,
    userId: string,
    writers: ReadonlyMap<number, number>,
  ): void {
    const fresh = [...writers.keys()].filter((client) => !state.clientOwners.has(client));
    if (fresh.length === 0) return;
    for (const client of fresh) state.clientOwners.set(client, userId);
    this.versions.recordClients(documentName, userId, fresh).catch((error: unknown) => {
      for (const client of fresh) state.clientOwners.delete(client);
      this.logger.warn('Recording who wrote a live update failed.', { documentName, err: error });
    });
  }

  /**
   * Folds the update log into the snapshot and writes the derived `documents.content` when it
   * changed, in one transaction; the document's other work waits meanwhile.
   */
  private async compact(documentName: string, document: Document): Promise<void> {
    await this.serially(documentName, async (state) => {
      state.compactionDue = false;
      const snapshot = Y.encodeStateAsUpdate(document);
      const content = contentOfYDoc(document);
      const contentText = JSON.stringify(content);
      if (state.readContent) {
        state.contentText = canonicalText(state.readContent);
        state.readContent = null;
      }
      const contentChanged = contentText !== state.contentText;
      if (
        !contentChanged &&
        state.updateIds.length === 0 &&
        Buffer.from(snapshot).equals(state.snapshot)
      ) {
        return;
      }
      // The rows the snapshot holds, as of now: an update committed while this compaction is
      // written joins the list and the document after the snapshot was taken, and stays for the
      // next one.
      const updateIds = [...state.updateIds];
      const written = await this.store.compact(documentName, {
        state: snapshot,
        previous: state.snapshot,
        updateIds,
        content: contentChanged ? content : null,
      });
      state.snapshot = written.snapshot;
      state.bytes = snapshot.byteLength;
      state.updateIds = state.updateIds.slice(updateIds.length);
      state.contentText = contentText;
    });
  }
}

/** A presence state as an object to add to: clients publish objects; anything else counts as empty. */
function objectOrEmpty(state: unknown): Record<string, unknown> {
  return typeof state === 'object' && state !== null && !Array.isArray(state)
    ? (state as Record<string, unknown>)
    : {};
}

/** Hocuspocus's Redis extension on the server of `url` (user, password, database and TLS included). */
function redisExtension(url: string): Redis {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || '0');
  return new Redis({
    host: parsed.hostname,
    port: Number(parsed.port || '6379'),
    prefix: 'inkwell',
    options: {
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      db: Number.isInteger(db) ? db : 0,
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}

/**
 * Whether an update (its `writers`, {@link clientsOf}) brings text of a Yjs client the server
 * recorded for another account than `userId`'s: who wrote what names a client's text by its
 * first writer, so a second account
 * writing as that client would put words in the first one's name. Structs the document holds
 * already (a reconnecting tab resending what it received) bring nothing and pass.
 */
function writesAsAnother(
  state: LoadedDocument,
  document: Y.Doc,
  userId: string,
  writers: ReadonlyMap<number, number> | null,
): boolean {
  for (const [client, end] of writers ?? []) {
    const owner = state.clientOwners.get(client);
    if (owner !== undefined && owner !== userId && end > Y.getState(document.store, client)) {
      return true;
    }
  }
  return false;
}

/**
 * The clients whose structs `update` brings, each with the clock its structs end at; null for
 * bytes that are no update (the schema guard refuses those, and says so).
 */
function clientsOf(update: Uint8Array): ReadonlyMap<number, number> | null {
  try {
    return Y.parseUpdateMeta(update).to;
  } catch {
    return null;
  }
}
