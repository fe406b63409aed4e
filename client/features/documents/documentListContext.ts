import { createContext, useContext, useSyncExternalStore } from 'react';
import type { DocumentList, DocumentListState } from './DocumentList.ts';

/** The app's one {@link DocumentList}, provided by {@link DocumentListProvider}. */
export const DocumentListContext = createContext<DocumentList | null>(null);

/** The shared document list, to update or refresh it. */
export function useDocumentList(): DocumentList {
  const list = useContext(DocumentListContext);
  if (!list) throw new Error('useDocumentList needs a DocumentListProvider above it');
  return list;
}

/** The list's state; the component re-renders when it visibly changes. */
export function useDocumentListState(): DocumentListState {
  const list = useDocumentList();
  return useSyncExternalStore(list.subscribe, list.getState);
}
