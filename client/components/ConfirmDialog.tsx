import { Dialog } from './Dialog.tsx';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  /** Whether the dialog is shown. */
  open: boolean;
  /** The question, as a heading. */
  title: string;
  /** What will happen, in a sentence. */
  message: string;
  /** The label of the button that goes ahead. */
  confirmLabel: string;
  /** Called when the writer goes ahead. */
  onConfirm: () => void;
  /** Called on Cancel, Escape or a click outside. */
  onCancel: () => void;
}

/** Asks before a drastic action, inside the app (never window.confirm). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, message, confirmLabel, onConfirm, onCancel } = props;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      className="ink-dialog--small"
      footer={
        <>
          <button type="button" className="ink-button" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="ink-button ink-button--primary"
            data-autofocus
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="ink-dialog__message">{message}</p>
    </Dialog>
  );
}
