import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { ToastContext, type ToastAction, type ToastApi, type ToastKind } from './toastContext.ts';

interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
  action?: ToastAction;
}

const NOTICE_MS = 5000;
/** A notice with a button (Undo) stays longer, so that there is time to reach it. */
const ACTION_MS = 10_000;

/** Provides {@link useToast} to its children and shows the toasts. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show: (message, kind = 'info', action) => {
        const id = nextId.current++;
        // One toast per message: repeating the same error should not stack copies.
        setToasts((list) => [
          ...list.filter((toast) => toast.message !== message),
          { id, message, kind, action },
        ]);
        if (kind === 'info') window.setTimeout(() => dismiss(id), action ? ACTION_MS : NOTICE_MS);
      },
    }),
    [dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="ink-toasts">
        {toasts.map((toast) => (
          <div key={toast.id} className={`ink-toast ink-toast--${toast.kind}`}>
            {/* Only the message is announced; the button stays out of the live region. */}
            <span role={toast.kind === 'error' ? 'alert' : 'status'}>{toast.message}</span>
            {toast.action ? (
              <button
                type="button"
                className="ink-toast__action"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action?.run();
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              className="ink-icon-button"
              aria-label="Dismiss"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
