import { useEffect, useState, type ReactNode } from 'react';
import { DocumentList } from './DocumentList.ts';
import { DocumentListContext, SharedDocumentListContext } from './documentListContext.ts';
import { listDocuments } from './documentsApi.ts';

/** Coming back to the tab refreshes the list at most this often (ms). */
const FOCUS_REFRESH_MS = 10_000;

/**
 * Loads the writer's documents, and those others shared with them, once for every screen and
 * fetches them again when the window comes back into focus, where another tab or device (or
 * another person, sharing) may have changed them.
 */
export function DocumentListProvider({ children }: { children: ReactNode }) {
  const [list] = useState(() => new DocumentList(() => listDocuments()));
  const [shared] = useState(
    () =>
      new DocumentList(async () =>
        // Only rows with an owner: a server without the shared list answers with the reader's own.
        (await listDocuments({ shared: true })).filter((row) => row.owner !== undefined),
      ),
  );

  useEffect(() => {
    const refresh = () => {
      void list.refresh();
      void shared.refresh();
    };
    refresh();
    let last = Date.now();
    const onFocus = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < FOCUS_REFRESH_MS) return;
      last = Date.now();
      refresh();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [list, shared]);

  return (
    <DocumentListContext.Provider value={list}>
      <SharedDocumentListContext.Provider value={shared}>
        {children}
      </SharedDocumentListContext.Provider>
    </DocumentListContext.Provider>
  );
}
