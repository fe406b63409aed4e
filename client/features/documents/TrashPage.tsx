import { useCallback, useEffect, useState } from 'react';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { AppLayout } from '../../app/AppLayout.tsx';
import { documentPath, navigate } from '../../app/router.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useToast } from '../../components/toastContext.ts';
import { relativeTime } from '../../lib/relativeTime.ts';
import { useDocumentList } from './documentListContext.ts';
import { deleteDocumentForever, listDocuments, restoreDocument } from './documentsApi.ts';
import { displayTitle, failureMessage } from './useDocumentActions.ts';

type TrashState =
  { status: 'loading' } | { status: 'ready'; documents: DocumentSummary[] } | { status: 'error' };

/** `/trash`: documents moved to the trash, to restore or delete for good. */
export function TrashPage() {
  const toast = useToast();
  const list = useDocumentList();
  const [state, setState] = useState<TrashState>({ status: 'loading' });
  const [confirming, setConfirming] = useState<DocumentSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(() => {
    setState({ status: 'loading' });
    listDocuments({ trash: true }).then(
      (documents) => setState({ status: 'ready', documents }),
      () => setState({ status: 'error' }),
    );
  }, []);

  useEffect(() => {
    document.title = 'Trash – Inkwell';
    load();
  }, [load]);

  const drop = (id: string) =>
    setState((current) =>
      current.status === 'ready'
        ? { status: 'ready', documents: current.documents.filter((row) => row.id !== id) }
        : current,
    );

  const run = async (summary: DocumentSummary, action: string, task: () => Promise<void>) => {
    setBusy(summary.id);
    try {
      await task();
      drop(summary.id);
    } catch (error) {
      const message = failureMessage(error, action);
      if (message) toast.show(message, 'error');
    } finally {
      setBusy(null);
    }
  };

  const restore = (summary: DocumentSummary) =>
    run(summary, 'restore the document', async () => {
      const restored = await restoreDocument(summary.id);
      list.add({ ...summary, ...restored, deletedAt: null });
      toast.show(`“${displayTitle(summary.title)}” restored.`, 'info', {
        label: 'Open',
        run: () => navigate(documentPath(summary.id)),
      });
    });

  const deleteForever = (summary: DocumentSummary) =>
    run(summary, 'delete the document', async () => {
      await deleteDocumentForever(summary.id);
      toast.show(`“${displayTitle(summary.title)}” deleted for good.`);
    });

  return (
    <AppLayout title={<h1 className="ink-page-title">Trash</h1>}>
      <div className="ink-page">
        {state.status === 'loading' ? (
          <p className="ink-loading" role="status">
            Loading…
          </p>
        ) : state.status === 'error' ? (
          <p>
            Couldn't load the trash.{' '}
            <button type="button" className="ink-link-button" onClick={load}>
              Try again
            </button>
          </p>
        ) : state.documents.length === 0 ? (
          <p className="ink-page__lead">The trash is empty.</p>
        ) : (
          <>
            <p className="ink-page__lead">Documents here can be restored, or deleted for good.</p>
            <ul className="ink-trash-list" aria-label="Documents in the trash">
              {state.documents.map((summary) => (
                <li key={summary.id} className="ink-trash-row">
                  <div className="ink-trash-row__text">
                    <span className="ink-trash-row__title">{displayTitle(summary.title)}</span>
                    {summary.excerpt ? (
                      <span className="ink-trash-row__excerpt">{summary.excerpt}</span>
                    ) : null}
                    {summary.deletedAt ? (
                      <span className="ink-trash-row__time">
                        Deleted {relativeTime(summary.deletedAt)}
                      </span>
                    ) : null}
                  </div>
                  <div className="ink-trash-row__actions">
                    <button
                      type="button"
                      className="ink-button"
                      disabled={busy === summary.id}
                      aria-label={`Restore “${displayTitle(summary.title)}”`}
                      onClick={() => void restore(summary)}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      className="ink-button ink-button--danger"
                      disabled={busy === summary.id}
                      aria-label={`Delete “${displayTitle(summary.title)}” forever`}
                      onClick={() => setConfirming(summary)}
                    >
                      Delete forever
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      {confirming ? (
        <ConfirmDialog
          open
          title="Delete forever?"
          message={`“${displayTitle(confirming.title)}” will be deleted for good. This cannot be undone.`}
          confirmLabel="Delete forever"
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const summary = confirming;
            setConfirming(null);
            void deleteForever(summary);
          }}
        />
      ) : null}
    </AppLayout>
  );
}
