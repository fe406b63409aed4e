import { useCallback, useEffect, useRef, useState } from 'react';
import type { SaveResult } from '../../../../common/api/documents.ts';
import { redirectToSignIn } from '../../../lib/api.ts';
import { createObservable, type Observable } from '../../../lib/observable.ts';
import { useToast } from '../../../components/toastContext.ts';
import { saveTitle } from '../../documents/documentsApi.ts';
import { pendingDocuments } from '../../documents/pendingDocuments.ts';
import {
  copyAfterEnd,
  REVOKED_NOTICE,
  REVOKED_UNSAVED_NOTICE,
  roleChangeNotice,
  setAsideNotice,
  SIGNED_OUT_NOTICE,
  type ConnectionEnd,
  type SetAsideEnd,
} from '../collab/connectionEnd.ts';
import type { SharedDocument } from '../collab/sharedDocument.ts';
import { createOnServer } from './createOnServer.ts';
import { loadSharedDocumentCode } from './sharedDocumentCode.ts';
import { addLiveSave, removeLiveSave, type LiveSave } from './liveSaves.ts';
import type { OpenedDocument } from './openDocument.ts';
import { isRefusal } from './saveFailure.ts';
import { worstStatus, type SaveStatus } from './saveStatus.ts';
import { TitleSave } from './TitleSave.ts';

/** The shared document, once the first sync with the server is done. */
export interface LiveDocument {
  shared: SharedDocument;
  readOnly: boolean;
}

/** What the page hears. */
export interface LiveDocumentHandlers {
  /** The server has the document (a document made in this tab: once it was created). */
  onCreated: (result: SaveResult) => void;
  /** The server stored the title. */
  onTitleSaved: (title: string, result: SaveResult) => void;
  /**
   * Edits the server will not store were taken out of the document (`update` holds what the page
   * held): this device's copy refused and set aside, or edits not yet saved when the person's
   * role was lowered or the document taken from them. The page says `notice` and may offer
   * them for download.
   */
  onSetAside?: (update: Uint8Array, notice: string) => void;
}

/**
 * Opens the document for live editing (docs/ARCHITECTURE.md "Live collaboration"): a document
 * made in this tab is created on the server first (with the content the codec built: a client
 * never seeds a shared document), then the shared-document code is fetched and connected. Until
 * the first sync, the page shows the last saved content read-only. The title is saved by REST
 * (TitleSave). Edits not yet on the server keep the page's beforeunload warning on (liveSaves.ts);
 * when the page closes the document, the connection stays until they are stored.
 */
export function useLiveDocument(
  opened: OpenedDocument,
  userId: string,
  getTitle: () => string,
  handlers: LiveDocumentHandlers,
) {
  const id = opened.record.id;
  const [status] = useState(() => createObservable<SaveStatus>({ kind: 'saved' }));
  const [live, setLive] = useState<LiveDocument | null>(null);
  // Set when the server ended the connection for good: the editor stops editing.
  const [ended, setEnded] = useState<ConnectionEnd | null>(null);
  const latest = useRef(handlers);
  const titleSave = useRef<TitleSave | null>(null);
  const toast = useToast();
  const latestToast = useRef(toast);

  useEffect(() => {
    latest.current = handlers;
    latestToast.current = toast;
  });

  useEffect(() => {
    // The device copy is named for its person (localCopies.ts): opened before the account is
    // known, it would be kept under no one's name, a second copy that revoking access (which
    // deletes this person's copy) would leave behind.
    if (!userId) return;
    let closed = false;
    let shared: SharedDocument | null = null;
    let created = !opened.creating;
    let contentStatus: SaveStatus = { kind: 'saved' };
    let titleStatus: SaveStatus = { kind: 'saved' };
    const show = () => status.set(worstStatus(contentStatus, titleStatus));
    const title = new TitleSave({
      baseVersion: opened.record.version,
      saved: opened.title,
      // A document made in this tab gets its title once the server has it (flushed then).
      send: (next, baseVersion, keepalive) =>
        created ? saveTitle(id, { baseVersion, title: next }, keepalive) : null,
      onStatus: (next) => {
        titleStatus = next;
        show();
      },
      onSaved: (saved, result) => latest.current.onTitleSaved(saved, result),
    });
    titleSave.current = title;
    const save: LiveSave = {
      get hasUnsavedEdits() {
        return !created || title.hasUnsavedEdits || (shared?.hasUnsavedEdits ?? false);
      },
      get isKeptLocally() {
        return created && !title.hasUnsavedEdits && (shared?.isKeptLocally ?? true);
      },
      flush: () => Promise.all([title.flush(), shared?.whenSaved()]).then(() => undefined),
      flushOnPageHide: () => void title.flush(true),
      retryNow: () => {
        shared?.retryNow();
        void title.flush();
      },
      dispose: () => {
        title.dispose();
        shared?.destroy();
        removeLiveSave(id, save);
      },
    };
    addLiveSave(id, save);

    const create = async () => {
      contentStatus = { kind: 'saving' };
      show();
      const result = await createOnServer(
        () => pendingDocuments.send(id),
        () => !closed,
        () => {
          // Not on the server yet: said, not left silent.
          contentStatus = { kind: 'waiting' };
          show();
        },
      );
      latest.current.onCreated(result);
      created = true;
      // A title typed meanwhile waited for the document to be there.
      void title.flush();
    };

    const connect = async () => {
      // Fetched while a document made here is built and created, not after.
      const loading = loadSharedDocumentCode();
      let sharedCode: Awaited<typeof loading> | null = null;
      if (!created) {
        contentStatus = { kind: 'saving' };
        show();
        // Without the shared document's code the document is still created (from its JSON).
        sharedCode = await loading.catch(() => null);
        if (!sharedCode) await create();
      }
      const { openSharedDocument, yDocOfNewDocument, stateOf, stateOffThread } =
        sharedCode ?? (await loading);
      // A refused device copy is set aside once; a second refusal (this page's own edits
      // refused) stops there rather than loop.
      let setAsideOnce = false;
      // What the editor was last made as, to tell the person what a role change did.
      let shownRole: { readOnly: boolean } | null = null;
      /** Opens the shared document; resolves with how it was admitted once synced. */
      const open = async (): Promise<{ readOnly: boolean } | null> => {
        if (closed) return null;
        // Made in this tab: its Y.Doc is built here from the content, edited at once, and its
        // state goes with the create (the server has no document anyone could have seeded).
        const made = created ? undefined : yDocOfNewDocument(opened.content);
        const opening = openSharedDocument({
          made,
          documentId: id,
          userId,
          onNotice: (message) => latestToast.current.show(message, 'error'),
          onEnd: (end) => {
            if (closed || shared !== opening) return;
            setEnded(end);
            switch (end) {
              case 'signed-out':
                // As a REST 401 does (lib/api.ts), but not at once: the writer reads the
                // document meanwhile, and the device copy keeps the edits for after signing in.
                latestToast.current.show(SIGNED_OUT_NOTICE, 'error', {
                  label: 'Sign in',
                  run: redirectToSignIn,
                });
                break;
              case 'revoked':
                forget(opening);
                break;
              case 'access-changed':
                void changeRole(
                  opening,
                  copyAfterEnd(end, opening.hasUnsavedEdits) === 'set-aside',
                );
                break;
              default:
                if (!setAsideOnce) {
                  setAsideOnce = true;
                  void setAsideAndReopen(opening, end);
                } else {
                  contentStatus = {
                    kind: 'failed',
                    message: 'the server refused an edit made here. Reload the page.',
                  };
                  show();
                }
            }
          },
        });
        shared = opening;
        // Read once built (in slices, after its device copy opened), merged by a worker: sent
        // instead of the content.
        if (made)
          pendingDocuments.useState(
            id,
            () => stateOf(made),
            () => opening.built,
            () => stateOffThread(made),
          );
        const unsubscribe = opening.status.subscribe((next) => {
          // Until the server has the document, its create's progress is the status.
          if (shared !== opening || !created) return;
          contentStatus = next;
          show();
        });
        if (made) {
          // The editor is made once, on this document, editable: the owner made it.
          shownRole = { readOnly: false };
          setLive({ shared: opening, readOnly: false });
          try {
            await create();
          } catch (error) {
            // Refused for good (too large, invalid): nothing typed here could be stored.
            if (isRefusal(error)) {
              if (shared === opening) setLive({ shared: opening, readOnly: true });
              // The server will never have this document: its device copy, and what was typed
              // into it meanwhile, is kept aside like a refused edit, not left where nothing
              // opens it again.
              keepRefusedCopy(opening).catch(() => undefined);
            }
            throw error;
          }
          // Even when the page has closed it: edits made meanwhile go to the server now.
          if (shared !== opening) return null;
          contentStatus = opening.status.get();
          show();
          // The server stored this very state: the sync finds nothing to transfer.
          opening.connectNow();
          return null;
        }
        contentStatus = opening.status.get();
        show();
        const { readOnly } = await opening.ready;
        if (closed || shared !== opening) {
          unsubscribe();
          return null;
        }
        // After a set-aside copy or a role change, the editor edits again (if it may) once on
        // the server's state.
        if (!opening.ended) setEnded(null);
        shownRole = { readOnly };
        setLive({ shared: opening, readOnly });
        return shownRole;
      };
      /** Moves `refused`'s device copy into the kept-aside store; gives its content. */
      const keepRefusedCopy = async (refused: SharedDocument) => {
        const update = await refused.setAside();
        // The device database (idb) loads only here: a refused copy is rare.
        await import('./keepAside.ts')
          .then(({ keepAside }) => keepAside(id, update))
          .catch(() => undefined);
        return update;
      };
      const reopen = async (refused: SharedDocument, end: SetAsideEnd) => {
        const update = await keepRefusedCopy(refused);
        latest.current.onSetAside?.(update, setAsideNotice(end));
        await open();
      };
      const failedSetAside = (error: unknown) => {
        contentStatus = {
          kind: 'failed',
          message: `this device's copy could not be set aside (${String(error)}). Reload the page.`,
        };
        show();
      };
      const setAsideAndReopen = (refused: SharedDocument, end: SetAsideEnd) =>
        reopen(refused, end).catch(failedSetAside);
      /**
       * The person's role changed while connected: the document opens again, admitted as the
       * role now says, the editor showing what it held until then. Edits not yet stored could
       * not be written any more (the role was lowered): set aside first, not resent.
       */
      const changeRole = async (changed: SharedDocument, setAside: boolean) => {
        const was = shownRole;
        let kept: Uint8Array | null = null;
        try {
          if (setAside) kept = await keepRefusedCopy(changed);
          else changed.destroy();
        } catch (error) {
          failedSetAside(error);
          return;
        }
        const now = await open();
        if (!now) return;
        const notice = roleChangeNotice(was, now, kept !== null);
        if (kept && notice) latest.current.onSetAside?.(kept, notice);
        else if (notice) latestToast.current.show(notice, 'info');
      };
      /**
       * The document was taken from this person: it stays in view, read-only, and this device's
       * copy is deleted. Edits the server never stored can be saved nowhere now; they are
       * offered for download, never kept on the device.
       */
      const forget = (lost: SharedDocument) => {
        if (lost.hasUnsavedEdits) {
          latest.current.onSetAside?.(lost.heldState(), REVOKED_UNSAVED_NOTICE);
        } else {
          latestToast.current.show(REVOKED_NOTICE, 'error');
        }
        lost.forgetLocalCopy().catch(() => undefined);
      };
      await open();
    };
    connect().catch((error: unknown) => {
      contentStatus = {
        kind: 'failed',
        message: error instanceof Error ? error.message : 'the document could not be opened.',
      };
      show();
    });

    return () => {
      closed = true;
      setLive(null);
      setEnded(null);
      // Edits not yet stored keep their connection until the server has them.
      void save.flush().then(() => save.dispose());
    };
  }, [id, opened, userId, status]);

  const titleChanged = useCallback(() => titleSave.current?.edit(getTitle()), [getTitle]);

  return {
    /** Where the document stands with respect to the server. */
    status: status as Observable<SaveStatus>,
    /** Records a title change. */
    titleChanged,
    /** The shared document, once synced; null while the page shows the saved copy read-only. */
    live,
    /** Why the server ended the connection for good, if it did: the editor must not edit. */
    ended,
  };
}
