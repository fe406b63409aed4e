/**
 * The shared document's code (Yjs, the provider, the device copy, the binding: the build's
 * `shared-document` chunk), loaded once an editor opens a live document. A document about to be
 * made in this tab (an import) fetches it early, so that it is not a round trip between the
 * parse and the document shown.
 */
export const loadSharedDocumentCode = () => import('../collab/sharedDocument.ts');

/** Starts loading {@link loadSharedDocumentCode}; a failure surfaces where it is used. */
export function prefetchSharedDocumentCode(): void {
  loadSharedDocumentCode().catch(() => undefined);
}
