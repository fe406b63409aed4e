import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import {
  auth,
  message,
  presence,
  readPresence,
  syncStep1,
  update,
  type PresenceMessage,
} from '../server/collab/test/collabMessages.ts';
import type { CollabTarget } from './collabClient.ts';

/** Hocuspocus message types (`MessageType` of @hocuspocus/server) a crowd member reads. */
const SYNC = 0;
const AWARENESS = 1;
const AUTH = 2;
const SYNC_REPLY = 4;
const STATELESS = 5;
const SYNC_STATUS = 8;
/** Hocuspocus's `AuthMessageType.PermissionDenied`. */
const PERMISSION_DENIED = 1;
/** The origin of changes applied from the server, so that they are not sent back. */
const FROM_SERVER = 'server';

/** Options of {@link CrowdSocket}. */
export interface CrowdSocketOptions {
  /** The session's Cookie header (none for the bare server). */
  cookie?: string;
  /** Keep a Y.Doc synced from the server (typists, observers); the others only receive. */
  copy: boolean;
  /** Every presence message (awareness, stateless) this member receives, decoded. */
  onPresence?: (message: PresenceMessage) => void;
}

/**
 * One person of a crowd on a raw socket speaking the Hocuspocus protocol by hand (y-protocols sync
 * and awareness messages over `ws`, as server/collab/test/collabMessages.ts writes them), so that one
 * process can hold a thousand: a HocuspocusProvider per person costs a Y.Doc each and decodes
 * every message. A member with a copy answers the server's sync step 1, applies what comes and
 * sends its own changes; one without reads no further than the header of its first messages.
 */
export class CrowdSocket {
  readonly doc: Y.Doc | null;
  /** Resolves once the server's sync step 2 arrived; rejects when refused or closed first. */
  readonly synced: Promise<void>;
  /** Resolves with the close code. */
  readonly closed: Promise<number>;
  /** Changes sent (updates and sync step 2 answers), and the server's acknowledgements of them. */
  sent = 0;
  acknowledged = 0;
  /** Messages received, and their bytes. */
  messages = 0;
  bytes = 0;
  private readonly socket: WebSocket;
  private clock = 0;
  private isSynced = false;

  constructor(
    target: CollabTarget,
    readonly name: string,
    private readonly options: CrowdSocketOptions,
  ) {
    this.doc = options.copy ? new Y.Doc() : null;
    this.socket = new WebSocket(target.wsUrl, {
      headers: { Origin: target.origin, ...(options.cookie ? { Cookie: options.cookie } : {}) },
      perMessageDeflate: false,
    });
    let settle: { resolve(): void; reject(error: Error): void } | undefined;
    this.synced = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    this.synced.catch(() => undefined);
    this.closed = new Promise<number>((resolve) =>
      this.socket.once('close', (code) => {
        settle?.reject(new Error(`closed: ${code}`));
        resolve(code);
      }),
    );
    this.socket.on('error', (error) => settle?.reject(error));
    this.socket.once('open', () => {
      this.socket.send(auth(name));
      this.socket.send(syncStep1(name));
    });
    this.socket.on('message', (data: Buffer) => {
      this.messages += 1;
      this.bytes += data.byteLength;
      if (!this.doc && this.isSynced) return;
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      try {
        if (this.read(bytes)) {
          this.isSynced = true;
          settle?.resolve();
        }
      } catch (error) {
        settle?.reject(error as Error);
      }
    });
    this.doc?.on('update', (change: Uint8Array, origin: unknown) => {
      if (origin === FROM_SERVER) return;
      this.sent += 1;
      this.send(update(name, change));
    });
  }

  /** Reads one message; true when it was the server's sync step 2 (the document synced). */
  private read(data: Uint8Array): boolean {
    const decoder = decoding.createDecoder(data);
    decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === AUTH && decoding.readVarUint(decoder) === PERMISSION_DENIED) {
      throw new Error('refused: permission-denied');
    }
    if ((type === AWARENESS || type === STATELESS) && this.options.onPresence) {
      const read = readPresence(data);
      if (read) this.options.onPresence(read);
    }
    if (type === SYNC_STATUS) this.acknowledged += 1;
    if (type !== SYNC && type !== SYNC_REPLY) return false;
    if (!this.doc) {
      return decoding.readVarUint(decoder) === sync.messageYjsSyncStep2;
    }
    const reply = encoding.createEncoder();
    const kind = sync.readSyncMessage(decoder, reply, this.doc, FROM_SERVER);
    if (encoding.length(reply) > 0) {
      // The answer to the server's step 1: what this copy has that the server lacks.
      this.sent += 1;
      const answer = encoding.toUint8Array(reply);
      this.send(message(this.name, SYNC, (e) => encoding.writeUint8Array(e, answer)));
    }
    return kind === sync.messageYjsSyncStep2;
  }

  /** Publishes this person's presence state (a new clock each time, as y-protocols' Awareness does). */
  publish(clientId: number, state: unknown): void {
    this.clock += 1;
    this.send(presence(this.name, [[clientId, state]], this.clock));
  }

  /**
   * A message that changes nothing, for a member without presence: Hocuspocus closes a socket
   * that sends nothing for 30 s, and presence's renewals are what keep an editor's open.
   */
  keepAlive(): void {
    this.send(presence(this.name, []));
  }

  private send(data: Uint8Array): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(data);
  }

  /** Every change sent was acknowledged ("Saved"). */
  get saved(): boolean {
    return this.acknowledged >= this.sent;
  }

  close(): void {
    this.socket.terminate();
    this.doc?.destroy();
  }
}
