import { useEffect, useId, useRef, type ReactNode } from 'react';

/** Props of {@link Dialog}. */
export interface DialogProps {
  /** Whether the dialog is shown. */
  open: boolean;
  /** The heading, also the dialog's accessible name. */
  title: string;
  /** Called on Escape, on the close button and on a click on the backdrop. */
  onClose: () => void;
  /** The body. */
  children: ReactNode;
  /** Buttons shown at the bottom right. */
  footer?: ReactNode;
  /** Extra class for size variants. */
  className?: string;
}

/**
 * A modal dialog on the native `<dialog>` element, which brings focus trapping, Escape and
 * the inert background for free.
 */
export function Dialog(props: DialogProps) {
  const { open, title, onClose, children, footer, className } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    // The dialog is often unmounted rather than closed, which skips the browser's own return
    // of focus; put it back where it was (the editor, the menu button) ourselves.
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // React never writes the autofocus attribute that showModal looks for, so focus here.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={className ? `ink-dialog ${className}` : 'ink-dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Keep React in charge of `open`; the native cancel would close it behind our back.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="ink-dialog__body">
        <header className="ink-dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="ink-icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {children}
        {footer ? <footer className="ink-dialog__footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
