/**
 * Where the open document stands with respect to the server (docs/PRODUCT.md "Keeping work safe").
 */
export type SaveStatus =
  | { kind: 'saved' }
  | { kind: 'saving' }
  /** The server is unreachable; `kept` tells whether the edits are in this device's storage. */
  | { kind: 'offline'; kept: boolean }
  | { kind: 'retrying' }
  /** The live connection is down, with nothing of this device's waiting for it. */
  | { kind: 'reconnecting' }
  /**
   * The document has not reached this page from the server yet (offline since it was opened, or
   * a new one not yet created there): it is shown read-only until it does.
   */
  | { kind: 'waiting' }
  /** The server refused the edits (too large, invalid, deleted); retrying would not help. */
  | { kind: 'failed'; message: string };

/** The words shown for a status in the status bar. */
export function saveStatusLabel(status: SaveStatus): string {
  switch (status.kind) {
    case 'saved':
      return 'Saved';
    case 'saving':
      return 'Saving…';
    case 'offline':
      return status.kept ? 'Offline, kept on this device' : 'Offline, not saved yet';
    case 'retrying':
      return "Couldn't save, retrying";
    case 'reconnecting':
      return 'Reconnecting…';
    case 'waiting':
      return 'Offline: read-only until connected';
    case 'failed':
      return `Couldn't save: ${status.message}`;
  }
}

/** Whether the status asks for the writer's attention (shown in the danger colour). */
export function isSaveProblem(status: SaveStatus): boolean {
  return (
    status.kind === 'failed' ||
    status.kind === 'retrying' ||
    (status.kind === 'offline' && !status.kept)
  );
}

/** Whether two statuses read the same, so that an unchanged one is not announced again. */
export function sameStatus(a: SaveStatus, b: SaveStatus): boolean {
  return saveStatusLabel(a) === saveStatusLabel(b);
}

/** How much a status needs the writer's attention, for {@link worstStatus}. */
function weight(status: SaveStatus): number {
  switch (status.kind) {
    case 'saved':
      return 0;
    case 'saving':
      return 1;
    case 'reconnecting':
      return 2;
    case 'waiting':
      return 3;
    case 'offline':
      return status.kept ? 3 : 5;
    case 'retrying':
      return 4;
    case 'failed':
      return 6;
  }
}

/**
 * The one status to show for a document saved along two ways (its content live, its title by
 * REST): the one that needs the writer's attention most, so "Saved" means both are.
 */
export function worstStatus(a: SaveStatus, b: SaveStatus): SaveStatus {
  return weight(b) > weight(a) ? b : a;
}
