/*
 * How the server ends a live-collaboration connection (docs/ARCHITECTURE.md "Live
 * collaboration", Refusals): the one table of close codes and reasons, which the server sends
 * (server/collab/collabEngine.ts) and the editor reads (client/features/live/collab/connectionEnd.ts).
 * A document's own close (Hocuspocus's close message, on a socket that stays open for others)
 * carries the reason only, with code 1000: the reason tells what happened.
 */

/** Close codes and reasons the client tells apart (4000–4999 are the application's). */
export const CLOSE = {
  /** The session ended (signed out, expired): sign in again. */
  signedOut: { code: 4401, reason: 'signed-out' },
  /** Access to a document on the socket was taken away (trashed, deleted, share removed). */
  revoked: { code: 4403, reason: 'access-revoked' },
  /**
   * The person's role in a document changed between viewer and editor: reconnect, to be admitted
   * read-only or writable as the role now says. 4403 like a revocation, so that a page older
   * than this code stops editing rather than reconnect into a connection it takes for writable.
   */
  accessChanged: { code: 4403, reason: 'access-changed' },
  /** Something the client sent was refused (malformed, invalid for the schema). */
  refused: { code: 1008, reason: 'refused' },
  /**
   * More messages a second than typing sends: nothing the client holds was refused, so its
   * device copy is not set aside (client/features/live/collab/connectionEnd.ts).
   */
  tooManyMessages: { code: 1008, reason: 'too-many-messages' },
  /** The document would grow past its size limit. */
  tooLarge: { code: 1009, reason: 'document-too-large' },
  /** The server could not load a document. */
  failed: { code: 1011, reason: 'load-failed' },
  /** The server is stopping; reconnect. */
  stopping: { code: 1012, reason: 'restarting' },
} as const;
