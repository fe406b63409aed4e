import { lazy, Suspense, useEffect, useState } from 'react';
import { titleKey } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { ErrorBoundary } from '../../../../components/ErrorBoundary.tsx';
import { useDocumentListState } from '../../../documents/documentListContext.ts';
import { onOpenRequest, type OpenRequest } from './openRequest.ts';
import type { WikilinkPanelProps } from './WikilinkPanel.tsx';
import { getBacklinks } from './wikilinksApi.ts';

const WikilinkPanel = lazy(() =>
  import('./WikilinkPanel.tsx').then((module) => ({ default: module.WikilinkPanel })),
);

/**
 * The wikilink panel, loaded when the document first needs it, as math and diagrams are: it has
 * backlinks to list, a wikilink was clicked, or it was renamed. Until then only the clicks are
 * listened for here. Offline, with its code not fetched, the page goes on without it.
 */
export function LazyWikilinkPanel(props: Omit<WikilinkPanelProps, 'request'>) {
  const { documentId, openedTitle } = props;
  const [needed, setNeeded] = useState(false);
  const [request, setRequest] = useState<OpenRequest | null>(null);
  const { documents } = useDocumentListState();
  const savedTitle = documents.find((row) => row.id === documentId)?.title ?? openedTitle;
  if (!needed && titleKey(savedTitle) !== titleKey(openedTitle)) setNeeded(true);

  useEffect(() => {
    let live = true;
    getBacklinks(documentId).then(
      (rows) => {
        if (live && rows.length > 0) setNeeded(true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [documentId]);

  useEffect(
    () =>
      onOpenRequest((next) => {
        setRequest(next);
        setNeeded(true);
      }),
    [],
  );

  if (!needed) return null;
  return (
    <ErrorBoundary>
      <Suspense fallback={null}>
        <WikilinkPanel {...props} request={request} />
      </Suspense>
    </ErrorBoundary>
  );
}
