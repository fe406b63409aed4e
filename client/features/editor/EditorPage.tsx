import { lazy, useEffect, useState } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSession } from '../auth/sessionContext.ts';
import { getDocument } from '../documents/documentsApi.ts';
import { pendingDocuments } from '../documents/pendingDocuments.ts';
import { forgetLocalCopy } from '../live/collab/localCopies.ts';
import { DocumentScreen } from './DocumentScreen.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import type { Draft } from '../live/persistence/draftStore.ts';
import { settleLiveSave } from '../live/persistence/liveSaves.ts';
import {
  openDocument,
  UnreadableDocumentError,
  type OpenedDocument,
} from '../live/persistence/openDocument.ts';

// A document in the trash or missing is shown once the server has said so: these pages load
// then, as opening a document never needs them (a failed load, maybe offline, is shown at once).
const TrashedDocument = lazy(() =>
  import('./DocumentUnavailable.tsx').then((module) => ({ default: module.TrashedDocument })),
);
const MissingDocument = lazy(() =>
  import('./DocumentUnavailable.tsx').then((module) => ({ default: module.MissingDocument })),
);

type PageState =
  | { kind: 'loading' }
  | { kind: 'open'; opened: OpenedDocument }
  | { kind: 'trashed'; opened: OpenedDocument }
  | { kind: 'missing'; draft: Draft | null }
  | { kind: 'failed'; message: string };

/**
 * Edits an earlier editor left on this device for a document the server does not have. Only a
 * missing document asks, so the drafts store (and idb) loads then, never on an open.
 */
async function draftOf(documentId: string): Promise<Draft | null> {
  try {
    const [{ asDraft }, { idbDraftStore }] = await Promise.all([
      import('../live/persistence/draftStore.ts'),
      import('../live/persistence/idbDraftStore.ts'),
    ]);
    return asDraft(await idbDraftStore.get(documentId));
  } catch {
    return null;
  }
}

async function load(documentId: string): Promise<PageState | null> {
  // Edits left saving in the background (this document, opened before) finish first.
  await settleLiveSave(documentId);
  try {
    const opened = await openDocument(documentId, {
      fetchDocument: getDocument,
      pendingDocument: (id) => pendingDocuments.get(id),
    });
    return opened.record.deletedAt ? { kind: 'trashed', opened } : { kind: 'open', opened };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') {
      return { kind: 'missing', draft: await draftOf(documentId) };
    }
    // The browser is on its way to sign in.
    if (error instanceof ApiError && error.status === 401) return null;
    if (error instanceof ApiError || error instanceof UnreadableDocumentError) {
      return { kind: 'failed', message: error.message };
    }
    return { kind: 'failed', message: "Couldn't load the document. Check your connection." };
  }
}

/** `/d/:id`: loads a document with this device's unsaved edits, then shows the editor. */
export function EditorPage({ documentId }: { documentId: string }) {
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const session = useSession();
  const userId = session.status === 'ready' ? session.me.user.id : null;

  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    void load(documentId).then((next) => {
      if (live && next) setState(next);
    });
    return () => {
      live = false;
    };
  }, [documentId, attempt]);

  // Gone, or no longer open to this person (who may have had it closed when access was
  // withdrawn): their device copy of it goes too.
  const missing = state.kind === 'missing';
  useEffect(() => {
    if (missing && userId) forgetLocalCopy(userId, documentId).catch(() => undefined);
  }, [missing, userId, documentId]);

  const reload = () => setAttempt((count) => count + 1);
  switch (state.kind) {
    case 'loading':
      return (
        <AppLayout>
          <p className="ink-loading" role="status">
            Loading…
          </p>
        </AppLayout>
      );
    case 'open':
      return <DocumentScreen opened={state.opened} />;
    case 'trashed':
      return <TrashedDocument record={state.opened.record} onRestored={reload} />;
    case 'missing':
      return <MissingDocument documentId={documentId} draft={state.draft} />;
    case 'failed':
      return <LoadFailed message={state.message} onRetry={reload} />;
  }
}
