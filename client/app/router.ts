import { useSyncExternalStore } from 'react';

// A history-API router of a few dozen lines instead of react-router: the app has four fixed
// routes and one parameter, and react-router would add about 27 KB gzip to the editor route's
// first download, which has to stay under about 254 KB.

/** A screen of the app (docs/PRODUCT.md "Screens and routes"). */
export type Route =
  | { name: 'home' }
  | { name: 'document'; id: string }
  | { name: 'trash' }
  | { name: 'settings' }
  | { name: 'joinLink'; token: string }
  | { name: 'notFound' };

/** The path of a document's editor. */
export function documentPath(id: string): string {
  return `/d/${encodeURIComponent(id)}`;
}

/** The route a path shows; a trailing slash is ignored. */
export function matchRoute(pathname: string): Route {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/' || path === '') return { name: 'home' };
  if (path === '/trash') return { name: 'trash' };
  if (path === '/settings') return { name: 'settings' };
  // A document's share link (docs/PRODUCT.md "Sharing"): the token is checked by the server.
  const link = /^\/s\/([A-Za-z0-9_-]+)$/.exec(path);
  if (link?.[1]) return { name: 'joinLink', token: link[1] };
  const document = /^\/d\/([^/]+)$/.exec(path);
  if (document?.[1]) {
    try {
      return { name: 'document', id: decodeURIComponent(document[1]) };
    } catch {
      // A malformed escape (`/d/%E0`) names no document.
    }
  }
  return { name: 'notFound' };
}

/** Where the browser is: the parts of the URL the app reads. */
export interface AppLocation {
  pathname: string;
  search: string;
}

const listeners = new Set<() => void>();
let snapshot: AppLocation | undefined;

function readLocation(): AppLocation {
  const { pathname, search } = window.location;
  // The same object while the URL stays, as useSyncExternalStore requires.
  if (snapshot?.pathname !== pathname || snapshot.search !== search) {
    snapshot = { pathname, search };
  }
  return snapshot;
}

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('popstate', notify);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

/** Options of {@link navigate}. */
export interface NavigateOptions {
  /** Replace the current history entry instead of adding one (redirects). */
  replace?: boolean;
}

/** Shows `to` (a path on this site) without reloading the page. */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const current = window.location.pathname + window.location.search;
  if (to === current && !options.replace) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  // A new page starts at its top; Back keeps the browser's own scroll restoration.
  if (!options.replace) window.scrollTo(0, 0);
  notify();
}

/** The current location; the component re-renders when it changes. */
export function useLocation(): AppLocation {
  return useSyncExternalStore(subscribe, readLocation);
}

/** The current route. */
export function useRoute(): Route {
  return matchRoute(useLocation().pathname);
}

/** The parts of a click that decide whether the app or the browser handles a link. */
export interface LinkClick {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}

/**
 * Whether a click on a same-site link is the app's to handle: a plain primary click. Modified
 * and middle clicks stay the browser's, so they still open new tabs and windows.
 */
export function isPlainClick(click: LinkClick, target?: string | null): boolean {
  if (click.defaultPrevented || click.button !== 0) return false;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false;
  return !target || target === '_self';
}
