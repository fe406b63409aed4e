import { useCallback, useEffect, useState } from 'react';
import type { SharingState } from '../../../common/api/sharing.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { LinkSection } from './LinkSection.tsx';
import { PeopleSection } from './PeopleSection.tsx';
import { PublishSection } from './PublishSection.tsx';
import { shareErrorText } from './shareErrors.ts';
import { sharingApi, type SharingApi } from './sharingApi.ts';
import './sharing.css';

/** Props of {@link ShareDialog}. */
export interface ShareDialogProps {
  /** The document to share; the reader owns it. */
  documentId: string;
  /** Closes the dialog. */
  onClose: () => void;
  /** The sharing API; tests pass a fake. */
  api?: SharingApi;
  /** The time now, for expiries (tests fix it). */
  now?: () => number;
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; state: SharingState };

/**
 * Share (docs/PRODUCT.md "Sharing"): the people a document is shared with, its link for people
 * who sign in, and its published page. Loaded on first use, with the editor page's Share button.
 */
export function ShareDialog({ documentId, onClose, api = sharingApi, now }: ShareDialogProps) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setLoaded({ kind: 'loading' });
    api.state(documentId).then(
      (state) => live && setLoaded({ kind: 'ready', state }),
      (error: unknown) => live && setLoaded({ kind: 'failed', message: shareErrorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [api, documentId, attempt]);

  // Every change answers with the whole state: the dialog shows what the server now holds.
  const change = useCallback(async (request: () => Promise<SharingState>) => {
    const state = await request();
    setLoaded({ kind: 'ready', state });
  }, []);

  return (
    <Dialog open title="Share" onClose={onClose} className="ink-dialog--share">
      {loaded.kind === 'loading' ? (
        <p className="ink-share__hint" role="status">
          Loading…
        </p>
      ) : loaded.kind === 'failed' ? (
        <div role="alert" className="ink-share__failed">
          <p className="ink-share__error">{loaded.message}</p>
          <button type="button" className="ink-button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <PeopleSection api={api} documentId={documentId} state={loaded.state} change={change} />
          <LinkSection api={api} documentId={documentId} state={loaded.state} change={change} />
          <PublishSection
            api={api}
            documentId={documentId}
            state={loaded.state}
            change={change}
            now={now}
          />
        </>
      )}
    </Dialog>
  );
}
