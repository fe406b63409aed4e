import { createContext, useContext } from 'react';

/** How a toast is announced: errors interrupt (`role="alert"`), notices wait (`role="status"`). */
export type ToastKind = 'error' | 'info';

/** Shows short messages at the bottom of the window. */
export interface ToastApi {
  /** Shows `message`; errors stay until dismissed, notices fade after a few seconds. */
  show: (message: string, kind?: ToastKind) => void;
}

/** The toast API, provided by {@link Toaster}. */
export const ToastContext = createContext<ToastApi>({ show: () => undefined });

/** The nearest toast API. */
export function useToast(): ToastApi {
  return useContext(ToastContext);
}
