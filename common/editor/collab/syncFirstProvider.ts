import { HocuspocusProvider } from '@hocuspocus/provider';
import * as decoding from 'lib0/decoding';

/** Hocuspocus message types that carry a Yjs sync message (its own `MessageType`). */
const SYNC = 0;
const SYNC_REPLY = 4;
/** y-protocols' first sync step: the sender's state vector, asking for what it lacks. */
const SYNC_STEP_1 = 0;

/** Whether a message from the server is its sync step 1 (the request this client answers with step 2). */
export function isServerSyncStep1(data: ArrayBuffer | Uint8Array): boolean {
  try {
    const decoder = decoding.createDecoder(
      data instanceof Uint8Array ? data : new Uint8Array(data),
    );
    decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    return (type === SYNC || type === SYNC_REPLY) && decoding.readVarUint(decoder) === SYNC_STEP_1;
  } catch {
    return false;
  }
}

/**
 * The provider the editor runs (docs/ARCHITECTURE.md "Live collaboration", "Sync first"): it
 * sends no update of its own on a socket before it has answered the server's sync step 1.
 *
 * HocuspocusProvider sends every local change as an update at once, also while a socket is only
 * opening, and queues the changes made without a socket to send first when one opens. Such an
 * update may build on changes the server does not have yet: the edits of a device copy, or those
 * the server had not stored when it was killed. They reach it only in this client's sync step 2,
 * its answer to the server's step 1, a round trip later. The server refuses an update whose
 * causes it lacks (it could not check it against the schema), so a writer who kept typing while
 * the connection came back was refused at every reconnect. The step 2 carries every change this
 * client has and the server lacks, including those held back here, and what is typed after it
 * builds only on what the server has: nothing is lost and nothing sent early.
 *
 * "Saved": the provider counts its changes waiting for the server's acknowledgement and starts
 * each sync at one (the step 2). A change held back while the socket opens is in that step 2 and
 * is not counted again; one made without a socket is counted, so that the save state shows edits
 * waiting on this device, and the count starts over at the next sync.
 */
export class SyncFirstProvider extends HocuspocusProvider {
  // Declared, not initialised: HocuspocusProvider's constructor may already open (a socket it
  // shares that is open), and a field initialiser would then undo that after it.
  /** A socket is open and this client has not answered the server's step 1 on it yet. */
  declare private opening: boolean;
  /** This client has answered the server's step 1 on the open socket. */
  declare private answered: boolean;

  override onOpen(event: Event): Promise<void> {
    this.opening = true;
    this.answered = false;
    return super.onOpen(event);
  }

  override onClose(): void {
    this.opening = false;
    this.answered = false;
    super.onClose();
  }

  override onMessage(event: MessageEvent): void {
    // Marked before the provider reads it: it answers with its step 2 in the same turn, and every
    // change made after that answer builds only on what the server has.
    if (isServerSyncStep1(event.data as ArrayBuffer | Uint8Array)) {
      this.opening = false;
      this.answered = true;
    }
    super.onMessage(event);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the provider's own signature
  override documentUpdateHandler(update: Uint8Array, origin: any): void {
    if (origin === this || this.answered) {
      super.documentUpdateHandler(update, origin);
      return;
    }
    if (!this.opening) this.incrementUnsyncedChanges();
  }
}
