import type { SaveStatus } from '../persistence/saveStatus.ts';

/** What the save state of a shared document is worked out from (see {@link collabStatus}). */
export interface CollabState {
  /** The socket is open. */
  connected: boolean;
  /** The first sync with the server is done (since the page opened). */
  synced: boolean;
  /** Updates sent (or to send) that the server has not yet acknowledged as stored. */
  unsynced: number;
  /** This device's copy (IndexedDB) is open and takes every change. */
  keptLocally: boolean;
  /** The server refused this document to this connection (access withdrawn, too large…). */
  refused: string | null;
  /** An attempt to connect failed (or the browser is offline) before the first sync. */
  unreachable?: boolean;
}

/**
 * The status bar's save state of a shared document (docs/ARCHITECTURE.md "Live collaboration"):
 * "Saved" only when the server's sync-status replies have come for every update (they are sent
 * after the update is on disk). Without a socket, edits not yet acknowledged are offline (kept on
 * this device when IndexedDB has them); with none, the page is only reconnecting.
 */
export function collabStatus(state: CollabState): SaveStatus {
  if (state.refused) return { kind: 'failed', message: state.refused };
  // Not synced yet and no way to the server: the page shows the saved copy read-only, and says
  // so rather than leave an editor that silently takes no typing.
  if (!state.connected && !state.synced && state.unreachable) return { kind: 'waiting' };
  if (state.connected)
    return state.synced && state.unsynced === 0 ? { kind: 'saved' } : { kind: 'saving' };
  if (state.unsynced > 0) return { kind: 'offline', kept: state.keptLocally };
  return { kind: 'reconnecting' };
}
