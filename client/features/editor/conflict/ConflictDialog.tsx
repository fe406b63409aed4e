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
        <Choice
          label="Keep mine"
          primary
          busy={busy}
          onClick={onKeepMine}
          description="Save your version over the other one."
        />
        <Choice
          label="Take theirs"
          busy={busy}
          onClick={onTakeTheirs}
          description="Show the other version; your edits here are dropped."
        />
        <Choice
          label="Keep both"
          busy={busy}
          onClick={onKeepBoth}
          description={`Save your version as a new document, “${copyTitle}”.`}
        />
      </ul>
    </Dialog>
  );
}

/** One answer: its button, described by the sentence beside it. */
function Choice(props: {
  label: string;
  description: string;
  busy: boolean;
  onClick: () => void;
  /** The first and safest choice: highlighted, and focused when the dialog opens. */
  primary?: boolean;
}) {
  const id = useId();
  return (
    <li>
      <button
        type="button"
        className={props.primary ? 'ink-button ink-button--primary' : 'ink-button'}
        data-autofocus={props.primary ? true : undefined}
        disabled={props.busy}
        aria-describedby={id}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      <span id={id}>{props.description}</span>
    </li>
  );
}
