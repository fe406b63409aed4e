/*
 * How the server ends a live connection (docs/ARCHITECTURE.md "Live collaboration", Refusals),
 * and what the page does about it. Without yjs, so that tests and the page read it cheaply.
 */

/** Why the connection to a document ended for good (reconnecting would be refused again). */
export type ConnectionEnd =
  /** 4401: the session was signed out; signing in again lets the writer go on. */
  | 'signed-out'
  /** 4403 or the document's `access-revoked` close: trashed, or access withdrawn. */
  | 'revoked'
  /**
   * 1008: the server refused an update this Y.Doc holds. Every reconnect would send it again
   * (the sync sends whatever the server lacks), so the device copy must be set aside.
   */
  | 'refused-update'
  /**
   * 1009: the server refused an update this Y.Doc holds because the document would pass its size
   * limit. Like `refused-update`, every reconnect would send it again: set aside.
   */
  | 'too-large';

/** The server's close codes and reasons the client tells apart (server/collab/collabEngine.ts CLOSE). */
export const SIGNED_OUT_CODE = 4401;
export const REVOKED_CODE = 4403;
export const REVOKED_REASON = 'access-revoked';
export const REFUSED_CODE = 1008;
export const TOO_LARGE_CODE = 1009;
/** 1008 for more messages a second than typing sends: nothing held was refused; reconnect. */
export const TOO_MANY_MESSAGES_REASON = 'too-many-messages';

/** A close of the socket, or Hocuspocus's close message for one document (code 1000 then). */
export interface CloseLike {
  code?: number;
  reason?: string;
}

/** What a close means for the document, or null when reconnecting may help (network, restart). */
export function connectionEndOf(event: CloseLike | undefined): ConnectionEnd | null {
  if (!event) return null;
  if (event.code === SIGNED_OUT_CODE) return 'signed-out';
  if (event.code === REVOKED_CODE || event.reason === REVOKED_REASON) return 'revoked';
  if (event.code === REFUSED_CODE && event.reason !== TOO_MANY_MESSAGES_REASON) {
    return 'refused-update';
  }
  if (event.code === TOO_LARGE_CODE) return 'too-large';
  return null;
}

/** The ends after which this device's copy is set aside. */
export type SetAsideEnd = 'refused-update' | 'too-large';

/** An end after which this device's copy is set aside and the document goes on from the server's. */
export function setsAside(end: ConnectionEnd): end is SetAsideEnd {
  return end === 'refused-update' || end === 'too-large';
}

/** Told in the status bar while the page keeps the document read-only after an end. */
export const ENDED_STATUS: Record<Exclude<ConnectionEnd, SetAsideEnd>, string> = {
  'signed-out': 'you were signed out.',
  revoked: 'this document is no longer open to you.',
};

/** Said (in a toast that stays) when the session was signed out. */
export const SIGNED_OUT_NOTICE =
  'You were signed out — sign in again to keep editing; your unsaved edits are kept on this device.';

/** Said when the document was trashed or access to it withdrawn. */
export const REVOKED_NOTICE =
  'This document was moved to the trash or you no longer have access. It is shown read-only.';

/** Said when this device's copy was refused by the server and set aside. */
export const SET_ASIDE_NOTICE =
  "The server refused this device's copy of the document (it may come from another version of Inkwell), so it was set aside and the document continues from the server.";

/** Said when this device's edits would have made the document larger than the server allows. */
export const TOO_LARGE_NOTICE =
  "The server refused the last edits made here: they would make the document larger than its size limit. This device's copy holding them was set aside and the document continues from the server.";
