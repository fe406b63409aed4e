import type { ReactNode } from 'react';
import { Link } from './Link.tsx';
import { useSidebar } from './sidebarContext.ts';

/** Props of {@link AppLayout}. */
export interface AppLayoutProps {
  /** The middle of the top bar: the document title field, or the screen's name. */
  title?: ReactNode;
  /** The right of the top bar: progress and the menu. */
  actions?: ReactNode;
  /** The page. */
  children?: ReactNode;
}

function SidebarIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="none">
      <rect x="2.5" y="3.5" width="15" height="13" rx="2" stroke="currentColor" strokeWidth="1.5" />
      <path d="M7.5 3.5v13" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/** The frame of every screen: a top bar with the sidebar toggle, a title and actions. */
export function AppLayout({ title, actions, children }: AppLayoutProps) {
  const sidebar = useSidebar();
  return (
    <div className="ink-app">
      <header className="ink-topbar">
        <button
          type="button"
          className="ink-icon-button"
          aria-label="Sidebar"
          aria-controls="ink-sidebar"
          aria-expanded={sidebar.open}
          onClick={sidebar.toggle}
        >
          <SidebarIcon />
        </button>
        <Link href="/" className="ink-brand" aria-label="Inkwell home">
          <span className="ink-brand__mark" aria-hidden="true">
            ✒︎
          </span>
          <span className="ink-brand__name">Inkwell</span>
        </Link>
        <div className="ink-topbar__title">{title}</div>
        <div className="ink-topbar__actions">{actions}</div>
      </header>
      <main className="ink-main">{children}</main>
    </div>
  );
}
