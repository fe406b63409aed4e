import { createContext, useContext } from 'react';

/** The sidebar's visibility, shared by the top bar's toggle and the sidebar itself. */
export interface SidebarControl {
  /** Whether the sidebar is shown. */
  open: boolean;
  /** Whether the window is phone-sized, where the sidebar lays over the page. */
  narrow: boolean;
  /** Shows or hides it. */
  toggle: () => void;
  /** Hides it on a phone (after choosing a document); on wider screens it stays. */
  dismiss: () => void;
}

/** The sidebar control, provided by the app shell. */
export const SidebarContext = createContext<SidebarControl>({
  open: false,
  narrow: false,
  toggle: () => undefined,
  dismiss: () => undefined,
});

/** The sidebar control. */
export function useSidebar(): SidebarControl {
  return useContext(SidebarContext);
}
