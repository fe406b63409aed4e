import type { ReactNode } from 'react';

/** Props of {@link AppLayout}. */
export interface AppLayoutProps {
  /** The middle of the top bar: the document title field. */
  title?: ReactNode;
  /** The right of the top bar: progress and the menu. */
  actions?: ReactNode;
  /** The page. */
  children?: ReactNode;
}

/** The frame of every screen: a top bar with the product name, a title and actions. */
export function AppLayout({ title, actions, children }: AppLayoutProps) {
  return (
    <div className="ink-app">
      <header className="ink-topbar">
        <a href="/" className="ink-brand" aria-label="Inkwell home">
          <span className="ink-brand__mark" aria-hidden="true">
            ✒︎
          </span>
          <span className="ink-brand__name">Inkwell</span>
        </a>
        <div className="ink-topbar__title">{title}</div>
        <div className="ink-topbar__actions">{actions}</div>
      </header>
      <main className="ink-main">{children}</main>
    </div>
  );
}
