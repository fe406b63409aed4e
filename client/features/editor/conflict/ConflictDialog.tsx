import { useId } from 'react';
import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { Dialog } from '../../../components/Dialog.tsx';
import { relativeTime } from '../../../lib/relativeTime.ts';

/** Props of {@link ConflictDialog}. */
export interface ConflictDialogProps {
  /** The server's copy that the editor's edits met. */
  current: DocumentRecord;
  /** The title of the copy "Keep both" would make. */
  copyTitle: string;
  /** True while a choice is being carried out. */
  busy: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onKeepBoth: () => void;
}

/**
 * Asks which version to keep when edits here met a newer version saved elsewhere. It cannot be
 * dismissed: saving waits for the answer, and every choice keeps or names what it drops.
 */
export function ConflictDialog(props: ConflictDialogProps) {
  const { current, copyTitle, busy, onKeepMine, onTakeTheirs, onKeepBoth } = props;
  const ids = { mine: useId(), theirs: useId(), both: useId() };
  const when = relativeTime(current.updatedAt);
  return (
    <Dialog
      open
      dismissible={false}
      title="This document was changed elsewhere"
      onClose={() => undefined}
      className="ink-dialog--small ink-conflict"
    >
      <p className="ink-dialog__message">
        A newer version was saved {when ? `${when} ` : ''}in another tab or on another device while
        this page had unsaved edits. Which version do you want?
      </p>
      <ul className="ink-conflict__choices">
        <li>
          <button
            type="button"
            className="ink-button ink-button--primary"
            data-autofocus
            disabled={busy}
            aria-describedby={ids.mine}
            onClick={onKeepMine}
          >
            Keep mine
          </button>
          <span id={ids.mine}>Save your version over the other one.</span>
        </li>
        <li>
          <button
            type="button"
            className="ink-button"
            disabled={busy}
            aria-describedby={ids.theirs}
            onClick={onTakeTheirs}
          >
            Take theirs
          </button>
          <span id={ids.theirs}>Show the other version; your edits here are dropped.</span>
        </li>
        <li>
          <button
            type="button"
            className="ink-button"
            disabled={busy}
            aria-describedby={ids.both}
            onClick={onKeepBoth}
          >
            Keep both
          </button>
          <span id={ids.both}>Save your version as a new document, “{copyTitle}”.</span>
        </li>
      </ul>
    </Dialog>
  );
}
