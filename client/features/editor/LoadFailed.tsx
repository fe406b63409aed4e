import { AppLayout } from '../../app/AppLayout.tsx';

/** A document that could not be loaded, with a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <AppLayout>
      <section className="ink-empty-state" aria-labelledby="ink-failed-title">
        <h1 id="ink-failed-title">Couldn't open this document</h1>
        <p>{message}</p>
        <div className="ink-empty-state__actions">
          <button type="button" className="ink-button ink-button--primary" onClick={onRetry}>
            Try again
          </button>
        </div>
      </section>
    </AppLayout>
  );
}
