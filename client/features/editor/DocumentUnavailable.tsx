import { useEffect, useState } from 'react';
import type { DocumentMeta } from '../../../common/api/documents.ts';
import { AppLayout } from '../../app/AppLayout.tsx';
import { Link } from '../../app/Link.tsx';
import { documentPath, navigate } from '../../app/router.ts';
import { useToast } from '../../components/toastContext.ts';
import { useDocumentList } from '../documents/documentListContext.ts';
import { createDocument, restoreDocument, summaryOf } from '../documents/documentsApi.ts';
import { displayTitle, failureMessage } from '../documents/useDocumentActions.ts';
import type { Draft } from '../live/persistence/draftStore.ts';
import { checkContent } from '../live/persistence/openDocument.ts';

/** Props of {@link MissingDocument}. */
export interface MissingDocumentProps {
  documentId: string;
  /** Unsaved edits this device still holds for the document, if any. */
  draft: Draft | null;
}

/**
 * A document that does not exist (or is another account's, or was deleted for good). Unsaved
 * edits this device still holds for it can be saved as a new document.
 */
export function MissingDocument({ documentId, draft }: MissingDocumentProps) {
  const toast = useToast();
  const list = useDocumentList();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Document not found – Inkwell';
  }, []);

  const saveDraft = async (kept: Draft) => {
    setBusy(true);
    try {
      const checked = await checkContent(JSON.parse(kept.json));
      if (!checked) throw new Error('unreadable draft');
      const copy = await createDocument({
        title: kept.title,
        content: JSON.stringify(checked.json),
      });
      // Loaded already: the page read the draft through it (EditorPage's draftOf).
      await import('../live/persistence/idbDraftStore.ts')
        .then(({ idbDraftStore }) => idbDraftStore.deleteUpTo(documentId, kept.change))
        .catch(() => undefined);
      list.add(summaryOf(copy));
      navigate(documentPath(copy.id), { replace: true });
    } catch (error) {
      toast.show(
        failureMessage(error, 'save the changes') ?? "Couldn't save the changes.",
        'error',
      );
      setBusy(false);
    }
  };

  return (
    <AppLayout>
      <section className="ink-empty-state" aria-labelledby="ink-missing-title">
        <h1 id="ink-missing-title">This document doesn't exist or was deleted</h1>
        <p>
          It may have been deleted from the trash, or the link may be wrong.{' '}
          <Link href="/">Go to your documents</Link> or <Link href="/trash">open the trash</Link>.
        </p>
        {draft ? (
          <>
            <p>
              This device still holds unsaved changes to it, titled “{displayTitle(draft.title)}”.
            </p>
            <div className="ink-empty-state__actions">
              <button
                type="button"
                className="ink-button ink-button--primary"
                disabled={busy}
                onClick={() => void saveDraft(draft)}
              >
                Save them as a new document
              </button>
            </div>
          </>
        ) : null}
      </section>
    </AppLayout>
  );
}

/** Props of {@link TrashedDocument}. */
export interface TrashedDocumentProps {
  record: DocumentMeta;
  /** Called once the document is back from the trash, to open it. */
  onRestored: () => void;
}

/** A document in the trash: it can be restored here, or found in the trash. */
export function TrashedDocument({ record, onRestored }: TrashedDocumentProps) {
  const toast = useToast();
  const list = useDocumentList();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `${displayTitle(record.title)} (in the trash) – Inkwell`;
  }, [record.title]);

  const restore = async () => {
    setBusy(true);
    try {
      const restored = await restoreDocument(record.id);
      list.add({ ...summaryOf(record), ...restored, deletedAt: null });
      onRestored();
    } catch (error) {
      const message = failureMessage(error, 'restore the document');
      if (message) toast.show(message, 'error');
      setBusy(false);
    }
  };

  return (
    <AppLayout>
      <section className="ink-empty-state" aria-labelledby="ink-trashed-title">
        <h1 id="ink-trashed-title">“{displayTitle(record.title)}” is in the trash</h1>
        <p>
          Restore it to read and edit it again, or <Link href="/trash">open the trash</Link>.
        </p>
        <div className="ink-empty-state__actions">
          <button
            type="button"
            className="ink-button ink-button--primary"
            disabled={busy}
            onClick={() => void restore()}
          >
            Restore
          </button>
        </div>
      </section>
    </AppLayout>
  );
}
