import { useEffect, useRef } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { documentPath, navigate } from '../../app/router.ts';
import { InlineProgress } from '../../components/InlineProgress.tsx';
import { useDocumentList, useDocumentListState } from './documentListContext.ts';
import { prefetchMarkdownCodec } from '../editor/markdown/codec.ts';
import { MarkdownFileInput } from './MarkdownFileInput.tsx';
import { useDocumentActions } from './useDocumentActions.ts';
import { useImportMarkdown } from './useImportMarkdown.ts';

/**
 * `/`: opens the most recently changed document (replacing the URL, so Back does not bounce
 * here), or, for a writer with none, offers to start one or import a Markdown file.
 */
export function HomePage() {
  const list = useDocumentList();
  const { documents, status } = useDocumentListState();
  const { createNew } = useDocumentActions();
  const { progress, importFile } = useImportMarkdown();
  const fileInput = useRef<HTMLInputElement>(null);
  const first = documents[0];

  useEffect(() => {
    if (first) navigate(documentPath(first.id), { replace: true });
    else document.title = 'Inkwell';
  }, [first]);

  if (first || status === 'loading') return <AppLayout />;
  return (
    <AppLayout actions={progress ? <InlineProgress label={progress} /> : null}>
      <section className="ink-empty-state" aria-labelledby="ink-home-title">
        {status === 'error' ? (
          <>
            <h1 id="ink-home-title">Couldn't load your documents</h1>
            <p>Check your connection and try again.</p>
            <div className="ink-empty-state__actions">
              <button type="button" className="ink-button" onClick={() => void list.refresh()}>
                Try again
              </button>
            </div>
          </>
        ) : (
          <>
            <h1 id="ink-home-title">No documents yet</h1>
            <p>Start a new document, or bring in a Markdown file.</p>
            <div className="ink-empty-state__actions">
              <button type="button" className="ink-button ink-button--primary" onClick={createNew}>
                New document
              </button>
              <button
                type="button"
                className="ink-button"
                onClick={() => fileInput.current?.click()}
                // The codec is not part of the first download: fetch it as the writer reaches for it.
                onPointerEnter={prefetchMarkdownCodec}
                onFocus={prefetchMarkdownCodec}
              >
                Import Markdown
              </button>
            </div>
          </>
        )}
      </section>
      <MarkdownFileInput
        ref={fileInput}
        onFile={(file, companions) => void importFile(file, companions)}
      />
    </AppLayout>
  );
}
