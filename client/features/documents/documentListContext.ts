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

/** The documents others shared with the reader ("Shared with me"), provided beside the own list. */
export const SharedDocumentListContext = createContext<DocumentList | null>(null);

/** The list of documents shared with the reader, to refresh it. */
export function useSharedDocumentList(): DocumentList {
  const list = useContext(SharedDocumentListContext);
  if (!list) throw new Error('useSharedDocumentList needs a DocumentListProvider above it');
  return list;
}

/** The state of the documents shared with the reader. */
export function useSharedDocumentListState(): DocumentListState {
  const list = useSharedDocumentList();
  return useSyncExternalStore(list.subscribe, list.getState);
}
