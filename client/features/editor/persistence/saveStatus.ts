/**
 * Where the open document stands with respect to the server (docs/PRODUCT.md "Keeping work safe").
 */
export type SaveStatus =
  | { kind: 'saved' }
  | { kind: 'saving' }
  /** The server is unreachable; `kept` tells whether the edits are in this device's storage. */
  | { kind: 'offline'; kept: boolean }
  | { kind: 'retrying' }
  /** The server refused the edits (too large, invalid, deleted); retrying would not help. */
  | { kind: 'failed'; message: string }
  /** Someone saved another version; the writer chooses in the conflict dialog. */
  | { kind: 'conflict' };

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
    case 'failed':
      return `Couldn't save: ${status.message}`;
    case 'conflict':
      return 'Not saved: another version exists';
  }
}

/** Whether the status asks for the writer's attention (shown in the danger colour). */
export function isSaveProblem(status: SaveStatus): boolean {
  return (
    status.kind === 'failed' ||
    status.kind === 'conflict' ||
    status.kind === 'retrying' ||
    (status.kind === 'offline' && !status.kept)
  );
}

/** Whether two statuses read the same, so that an unchanged one is not announced again. */
export function sameStatus(a: SaveStatus, b: SaveStatus): boolean {
  return saveStatusLabel(a) === saveStatusLabel(b);
}
