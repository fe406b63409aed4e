import { createContext, useContext } from 'react';

/** How a toast is announced: errors interrupt (`role="alert"`), notices wait (`role="status"`). */
export type ToastKind = 'error' | 'info';

/** A button in a toast, such as Undo. */
export interface ToastAction {
  /** The button's text. */
  label: string;
  /** Runs on click; the toast closes. */
  run: () => void;
}

/** Shows short messages at the bottom of the window. */
export interface ToastApi {
  /** Shows `message`; errors stay until dismissed, notices fade after a few seconds. */
  show: (message: string, kind?: ToastKind, action?: ToastAction) => void;
}

/** The toast API, provided by {@link Toaster}. */
export const ToastContext = createContext<ToastApi>({ show: () => undefined });

/** The nearest toast API. */
export function useToast(): ToastApi {
  return useContext(ToastContext);
}
