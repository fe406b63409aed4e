import { useEffect } from 'react';
import { AppLayout } from './AppLayout.tsx';
import { Link } from './Link.tsx';

/** Any path the app does not know. */
export function NotFoundPage() {
  useEffect(() => {
    document.title = 'Page not found – Inkwell';
  }, []);
  return (
    <AppLayout>
      <section className="ink-empty-state" aria-labelledby="ink-not-found-title">
        <h1 id="ink-not-found-title">Page not found</h1>
        <p>There is nothing at this address.</p>
        <p>
          <Link href="/">Go to your documents</Link>
        </p>
      </section>
    </AppLayout>
  );
}
