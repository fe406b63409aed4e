import { useEffect, useState } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { Link } from '../../app/Link.tsx';
import { documentPath, navigate } from '../../app/router.ts';
import { ApiError } from '../../lib/api.ts';
import { useSharedDocumentList } from '../documents/documentListContext.ts';
import { shareErrorText } from './shareErrors.ts';
import { joinLink, type JoinLink } from './sharingApi.ts';

/** Props of {@link JoinLinkPage}. */
export interface JoinLinkPageProps {
  /** The token of the address `/s/<token>`. */
  token: string;
  /** Joins through the link; tests pass a fake. */
  join?: JoinLink;
}

type JoinState = { kind: 'joining' } | { kind: 'dead' } | { kind: 'failed'; message: string };

/**
 * `/s/<token>`: the signed-in person comes in through a document's link (a signed-out one went
 * through sign-in first, the server's doing) and the document replaces this page in the history,
 * so Back does not join again. A link turned off or made anew says so, with a way home.
 */
export function JoinLinkPage({ token, join = joinLink }: JoinLinkPageProps) {
  const [state, setState] = useState<JoinState>({ kind: 'joining' });
  const [attempt, setAttempt] = useState(0);
  const shared = useSharedDocumentList();

  useEffect(() => {
    let live = true;
    setState({ kind: 'joining' });
    join(token).then(
      ({ documentId }) => {
        if (!live) return;
        // The document is now among those shared with this person.
        void shared.refresh();
        navigate(documentPath(documentId), { replace: true });
      },
      (error: unknown) => {
        if (!live) return;
        // 404: no document has this link now; 400: the address was cut short or mangled.
        const dead = error instanceof ApiError && (error.status === 404 || error.status === 400);
        setState(dead ? { kind: 'dead' } : { kind: 'failed', message: shareErrorText(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [token, join, shared, attempt]);

  useEffect(() => {
    document.title = state.kind === 'dead' ? "This link doesn't work – Inkwell" : 'Inkwell';
  }, [state.kind]);

  return (
    <AppLayout>
      {state.kind === 'joining' ? (
        <p className="ink-loading" role="status">
          Opening the shared document…
        </p>
      ) : state.kind === 'dead' ? (
        <section className="ink-empty-state" aria-labelledby="ink-dead-link-title">
          <h1 id="ink-dead-link-title">This link doesn't work any more</h1>
          <p>Its owner turned it off or made a new one. Ask them for the current link.</p>
          <p>
            <Link href="/">Go to your documents</Link>
          </p>
        </section>
      ) : (
        <section className="ink-empty-state" role="alert">
          <h1>Couldn't open the link</h1>
          <p>{state.message}</p>
          <div className="ink-empty-state__actions">
            <button type="button" className="ink-button" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        </section>
      )}
    </AppLayout>
  );
}
