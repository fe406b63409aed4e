import { useCallback } from 'react';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { useToast } from '../../components/toastContext.ts';
import { documentPath, matchRoute, navigate } from '../../app/router.ts';
import { ApiError } from '../../lib/api.ts';
import { flushLiveSave } from '../live/persistence/liveSaves.ts';
import { useDocumentList } from './documentListContext.ts';
import { restoreDocument, trashDocument } from './documentsApi.ts';
import { openMadeDocument } from './openMadeDocument.ts';

/** The sentence to show for a failed request; null when the browser is leaving to sign in. */
export function failureMessage(error: unknown, action: string): string | null {
  if (error instanceof ApiError) return error.status === 401 ? null : error.message;
  return `Couldn't ${action}. Check your connection and try again.`;
}

/** A title as lists and messages show it. */
export function displayTitle(title: string): string {
  return title.trim() || 'Untitled';
}

/** Creating, trashing and restoring documents, with the list and toasts kept in step. */
export function useDocumentActions() {
  const list = useDocumentList();
  const toast = useToast();

  const fail = useCallback(
    (error: unknown, action: string) => {
      const message = failureMessage(error, action);
      if (message) toast.show(message, 'error');
    },
    [toast],
  );

  /**
   * A new, empty document, open at once and ready for typing: made in this tab and created on the
   * server in the background (openMadeDocument.ts), with no round trip to wait for first.
   */
  const createNew = useCallback(
    (click?: { detail: number }) => {
      // One click, one document: the second click of a double click makes no second one.
      if (click && click.detail > 1) return;
      // Made here, it would wait for the server on this device alone, which keeps the document
      // only while the page is open: a new document starts with a connection.
      if (!navigator.onLine) {
        toast.show(
          "Couldn't create a document while offline. Check your connection and try again.",
          'error',
        );
        return;
      }
      openMadeDocument(list, {
        title: '',
        doc: inkwellSchema().topNodeType.createAndFill()!,
        onRefused: (error) => fail(error, 'create a document'),
      });
    },
    [fail, list, toast],
  );

  const restore = useCallback(
    async (summary: DocumentSummary, reopen: boolean) => {
      try {
        const restored = await restoreDocument(summary.id);
        list.add({ ...summary, ...restored, deletedAt: null });
        if (reopen) navigate(documentPath(summary.id));
      } catch (error) {
        fail(error, 'restore the document');
      }
    },
    [fail, list],
  );

  const moveToTrash = useCallback(
    async (summary: DocumentSummary) => {
      const route = matchRoute(window.location.pathname);
      const wasOpen = route.name === 'document' && route.id === summary.id;
      try {
        // Edits not yet saved go first: the server refuses saves to a document in the trash.
        await flushLiveSave(summary.id);
        await trashDocument(summary.id);
      } catch (error) {
        fail(error, 'move the document to the trash');
        return;
      }
      list.remove(summary.id);
      if (wasOpen) navigate('/', { replace: true });
      toast.show(`“${displayTitle(summary.title)}” moved to the trash.`, 'info', {
        label: 'Undo',
        run: () => void restore(summary, wasOpen),
      });
    },
    [fail, list, restore, toast],
  );

  return { createNew, moveToTrash, restore };
}
