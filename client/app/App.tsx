import { lazy, Suspense, useCallback, useEffect, type ReactNode } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { InlineProgress } from '../components/InlineProgress.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { SessionProvider } from '../features/auth/SessionProvider.tsx';
import { DocumentListProvider } from '../features/documents/DocumentListProvider.tsx';
import { HomePage } from '../features/documents/HomePage.tsx';
import { Sidebar } from '../features/documents/Sidebar.tsx';
import { useImportMarkdown } from '../features/documents/useImportMarkdown.ts';
import { EditorPage } from '../features/editor/EditorPage.tsx';
import { AppLayout } from './AppLayout.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { useLocation, useRoute, type Route } from './router.ts';
import { SidebarContext } from './sidebarContext.ts';
import { useMarkdownDrop } from './useMarkdownDrop.ts';
import { useSignOutElsewhere } from './useSignOutElsewhere.ts';
import { useSidebarState } from './useSidebarState.ts';

// Screens visited now and then load on first visit; the editor route stays in the first download.
const TrashPage = lazy(() =>
  import('../features/documents/TrashPage.tsx').then((module) => ({ default: module.TrashPage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/SettingsPage.tsx').then((module) => ({
    default: module.SettingsPage,
  })),
);
// Opened once per share link followed.
const JoinLinkPage = lazy(() =>
  import('../features/sharing/JoinLinkPage.tsx').then((module) => ({
    default: module.JoinLinkPage,
  })),
);

function page(route: Route): ReactNode {
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'document':
      // Keyed: each document gets its own editor, history and connection.
      return <EditorPage key={route.id} documentId={route.id} />;
    case 'trash':
      return <TrashPage />;
    case 'settings':
      return <SettingsPage />;
    case 'joinLink':
      return <JoinLinkPage token={route.token} />;
    case 'notFound':
      return <NotFoundPage />;
  }
}

function PageFailed() {
  return (
    <AppLayout>
      <section className="ink-empty-state" role="alert">
        <h1>This page couldn't be shown</h1>
        <p>Check your connection, then reload the page.</p>
        <div className="ink-empty-state__actions">
          <button type="button" className="ink-button" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </section>
    </AppLayout>
  );
}

/** The sidebar beside (or over) the current screen. */
function Shell() {
  const route = useRoute();
  const { pathname } = useLocation();
  const sidebar = useSidebarState();
  const { dismiss } = sidebar;
  const { progress, importFile } = useImportMarkdown();
  useMarkdownDrop(
    useCallback(
      (file: File, companions: File[]) => void importFile(file, companions),
      [importFile],
    ),
  );
  useSignOutElsewhere();

  // Back and Forward close the phone's sidebar too, as following a link in it does.
  useEffect(() => dismiss(), [pathname, dismiss]);

  const overlay = sidebar.open && sidebar.narrow;
  return (
    <SidebarContext.Provider value={sidebar}>
      <div className="ink-shell" data-sidebar={sidebar.open ? 'open' : 'closed'}>
        <Sidebar />
        {progress ? (
          <div className="ink-shell__progress">
            <InlineProgress label={progress} />
          </div>
        ) : null}
        {overlay ? <div className="ink-shell__scrim" aria-hidden="true" onClick={dismiss} /> : null}
        <div className="ink-shell__page">
          <ErrorBoundary key={pathname} fallback={<PageFailed />}>
            <Suspense fallback={<AppLayout />}>{page(route)}</Suspense>
          </ErrorBoundary>
        </div>
      </div>
    </SidebarContext.Provider>
  );
}

/** The whole app: the signed-in account, the document list, the sidebar and the routes. */
export function App() {
  return (
    <Toaster>
      <SessionProvider>
        <DocumentListProvider>
          <Shell />
        </DocumentListProvider>
      </SessionProvider>
    </Toaster>
  );
}
