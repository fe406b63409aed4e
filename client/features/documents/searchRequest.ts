/** The event by which another part of the app asks the sidebar to search (a click on a #tag). */
const SEARCH_REQUEST = 'inkwell:search-request';

/** Asks the sidebar to show the results of searching for `query`. */
export function requestSearch(query: string): void {
  window.dispatchEvent(new CustomEvent<string>(SEARCH_REQUEST, { detail: query }));
}

/** Calls `onRequest` for every search asked for; returns the function that stops listening. */
export function onSearchRequest(onRequest: (query: string) => void): () => void {
  const listener = (event: Event) => {
    if (event instanceof CustomEvent && typeof event.detail === 'string') onRequest(event.detail);
  };
  window.addEventListener(SEARCH_REQUEST, listener);
  return () => window.removeEventListener(SEARCH_REQUEST, listener);
}
