import { useEffect, useState, type ReactNode } from 'react';
import { DocumentList } from './DocumentList.ts';
import { DocumentListContext } from './documentListContext.ts';
import { listDocuments } from './documentsApi.ts';

/** Coming back to the tab refreshes the list at most this often (ms). */
const FOCUS_REFRESH_MS = 10_000;

/**
 * Loads the writer's documents once for every screen and fetches them again when the window
 * comes back into focus, where another tab or device may have changed them.
 */
export function DocumentListProvider({ children }: { children: ReactNode }) {
  const [list] = useState(() => new DocumentList(() => listDocuments()));

  useEffect(() => {
    void list.refresh();
    let last = Date.now();
    const onFocus = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < FOCUS_REFRESH_MS) return;
      last = Date.now();
      void list.refresh();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [list]);

  return <DocumentListContext.Provider value={list}>{children}</DocumentListContext.Provider>;
}
