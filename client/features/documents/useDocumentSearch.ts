import { useEffect, useState } from 'react';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { listDocuments } from './documentsApi.ts';

/** Typing pauses this long (ms) before a search is sent. */
const SEARCH_DELAY_MS = 250;

/** Where a search stands. */
export type SearchState =
  | { status: 'idle' }
  | { status: 'searching' }
  | { status: 'done'; results: DocumentSummary[] }
  | { status: 'error' };

/**
 * Full-text search over the writer's documents: sent after a pause in typing, the previous
 * request cancelled when the query changes, so an older answer never replaces a newer one.
 */
export function useDocumentSearch(query: string): SearchState {
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const q = query.trim();

  useEffect(() => {
    if (!q) {
      setState({ status: 'idle' });
      return;
    }
    setState((previous) => (previous.status === 'done' ? previous : { status: 'searching' }));
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      listDocuments({ q, signal: controller.signal }).then(
        (results) => setState({ status: 'done', results }),
        () => {
          if (!controller.signal.aborted) setState({ status: 'error' });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  return state;
}
