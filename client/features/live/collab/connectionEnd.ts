/*
 * How the server ends a live connection (docs/ARCHITECTURE.md "Live collaboration", Refusals),
 * and what the page does about it. Without yjs, so that tests and the page read it cheaply.
 */
import { CLOSE } from '../../../../common/api/collabClose.ts';

/** Why the server ended the connection to a document: reconnecting as it was would not help. */
export type ConnectionEnd =
  /** 4401: the session was signed out; signing in again lets the writer go on. */
  | 'signed-out'
  /** 4403 or the document's `access-revoked` close: trashed, or access withdrawn. */
  | 'revoked'
  /**
   * The document's `access-changed` close: the person's role moved between viewer and editor.
   * The page opens the document again, admitted read-only or writable as the role now says.
   */
  | 'access-changed'
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

/** A close of the socket, or Hocuspocus's close message for one document (code 1000 then). */
export interface CloseLike {
  code?: number;
  reason?: string;
}

/** What a close means for the document, or null when reconnecting may help (network, restart). */
export function connectionEndOf(event: CloseLike | undefined): ConnectionEnd | null {
  if (!event) return null;
  // Before the code: a role change closes the socket with the revocation's code.
  if (event.reason === CLOSE.accessChanged.reason) return 'access-changed';
  if (event.code === CLOSE.signedOut.code) return 'signed-out';
  if (event.code === CLOSE.revoked.code || event.reason === CLOSE.revoked.reason) return 'revoked';
  if (event.code === CLOSE.refused.code && event.reason !== CLOSE.tooManyMessages.reason) {
    return 'refused-update';
  }
  if (event.code === CLOSE.tooLarge.code) return 'too-large';
  return null;
}

/**
 * What becomes of this device's copy after `end` (useLiveDocument.ts), `unsaved` telling whether
 * the page holds edits the server has not acknowledged: kept; set aside (moved to the device's
 * kept-aside store and offered as Markdown, the document going on from the server's state); or
 * forgotten (deleted: a person keeps no copy of a document they lost; edits not yet saved are
 * offered as Markdown only). After a role change the document opens again as the role now says;
 * edits it held back could no longer be written (the role was lowered), so they are set aside
 * rather than resent at every reconnect.
 */
export function copyAfterEnd(
  end: ConnectionEnd,
  unsaved: boolean,
): 'keep' | 'set-aside' | 'forget' {
  switch (end) {
    case 'signed-out':
      // Signing in again lets the writer go on: the copy holds the edits for then.
      return 'keep';
    case 'revoked':
      return 'forget';
    case 'refused-update':
    case 'too-large':
      return 'set-aside';
    case 'access-changed':
      return unsaved ? 'set-aside' : 'keep';
  }
}

/** The ends after which this device's copy is set aside. */
export type SetAsideEnd = 'refused-update' | 'too-large';

/** Told in the status bar while the page keeps the document read-only after an end. */
export const ENDED_STATUS: Partial<Record<ConnectionEnd, string>> = {
  'signed-out': 'you were signed out.',
  revoked: 'this document is no longer open to you.',
};

/** Said (in a toast that stays) when the session was signed out. */
export const SIGNED_OUT_NOTICE =
  'You were signed out — sign in again to keep editing; your unsaved edits are kept on this device.';

/** Said when the document was trashed or access to it withdrawn. */
export const REVOKED_NOTICE =
  'This document was moved to the trash or you no longer have access. It is shown read-only.';

/** Said when the document was revoked while this page held edits the server had not stored. */
export const REVOKED_UNSAVED_NOTICE = `${REVOKED_NOTICE} Edits made here that were not saved yet cannot be saved anywhere now: download them as Markdown to keep them.`;

/**
 * Said once the document is open again after a role change: what the person may now do, and
 * whether edits made here that the server had not stored were set aside; null when the role
 * seen is the one the page had (changed back meanwhile) and nothing was set aside.
 */
export function roleChangeNotice(
  was: { readOnly: boolean } | null,
  now: { readOnly: boolean },
  setAside: boolean,
): string | null {
  const role =
    was?.readOnly === now.readOnly
      ? null
      : now.readOnly
        ? 'You can now only view this document.'
        : 'You can now edit this document.';
  if (!setAside) return role;
  return `${role ?? 'Your access to this document changed.'} Edits made here that were not saved yet could not be stored, so they were set aside on this device: download them as Markdown to keep them.`;
}

/** Said when this device's copy was refused by the server and set aside. */
const SET_ASIDE_NOTICE =
  "The server refused this device's copy of the document (it may come from another version of Inkwell), so it was set aside and the document continues from the server.";

/** Said when this device's edits would have made the document larger than the server allows. */
const TOO_LARGE_NOTICE =
  "The server refused the last edits made here: they would make the document larger than its size limit. This device's copy holding them was set aside and the document continues from the server.";

/** What is said when this device's copy was set aside after `end`. */
export function setAsideNotice(end: SetAsideEnd): string {
  return end === 'too-large' ? TOO_LARGE_NOTICE : SET_ASIDE_NOTICE;
}
