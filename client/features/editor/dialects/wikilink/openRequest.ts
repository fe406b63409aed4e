import type { WikilinkParts } from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';

/** The event by which the editor asks the page to open a wikilink's target. */
const OPEN_REQUEST = 'inkwell:wikilink-open';

/** Asks the page (WikilinkPanel) to open what `parts` points at. */
export function requestOpen(parts: WikilinkParts): void {
  window.dispatchEvent(new CustomEvent<WikilinkParts>(OPEN_REQUEST, { detail: parts }));
}

/** Calls `onRequest` for every wikilink to open; returns the function that stops listening. */
export function onOpenRequest(onRequest: (parts: WikilinkParts) => void): () => void {
  const listener = (event: Event) => {
    if (event instanceof CustomEvent) onRequest(event.detail as WikilinkParts);
  };
  window.addEventListener(OPEN_REQUEST, listener);
  return () => window.removeEventListener(OPEN_REQUEST, listener);
}

/** A heading to scroll to once the document `id` has opened (a link with `#Heading`). */
let pendingHeading: { id: string; heading: string; until: number } | null = null;

/** Remembers that document `id`, about to open, should show `heading`. */
export function showHeadingOnOpen(id: string, heading: string): void {
  pendingHeading = { id, heading, until: Date.now() + 10_000 };
}

/** The heading to show in document `id`, once: null when none was asked for (lately). */
export function takePendingHeading(id: string): string | null {
  const pending = pendingHeading;
  if (!pending || pending.id !== id) return null;
  pendingHeading = null;
  return pending.until > Date.now() ? pending.heading : null;
}

/** The event by which the page asks the open editor to show one of its headings. */
const HEADING_REQUEST = 'inkwell:wikilink-heading';

/** Asks the open editor to show `heading` (a link into the document that holds it). */
export function requestHeading(heading: string): void {
  window.dispatchEvent(new CustomEvent<string>(HEADING_REQUEST, { detail: heading }));
}

/** Calls `onRequest` for every heading asked for; returns the function that stops listening. */
export function onHeadingRequest(onRequest: (heading: string) => void): () => void {
  const listener = (event: Event) => {
    if (event instanceof CustomEvent && typeof event.detail === 'string') onRequest(event.detail);
  };
  window.addEventListener(HEADING_REQUEST, listener);
  return () => window.removeEventListener(HEADING_REQUEST, listener);
}
