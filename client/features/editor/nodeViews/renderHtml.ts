import { whenIdle } from '../../../lib/schedule.ts';
import { loadPurifier, purifyToFragment, readyPurifier } from './purifier.ts';

/** Renders waiting for an idle moment; an import can bring thousands at once. */
const queue: Array<() => void> = [];
let scheduled = false;

function drain(): void {
  scheduled = false;
  const deadline = performance.now() + 8;
  while (queue.length > 0 && performance.now() < deadline) queue.shift()!();
  if (queue.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  whenIdle(drain, 200);
}

/**
 * Fills `container` with the sanitised `html` at the next idle moment (in slices of 8 ms, so that
 * a document full of HTML is shown first and rendered right after), once DOMPurify is loaded.
 * `isCurrent` guards against a late render overwriting a newer one; `onRendered` learns whether
 * anything visible came out.
 */
export function renderSanitized(
  container: HTMLElement,
  html: string,
  isCurrent: () => boolean,
  onRendered: (visible: boolean) => void,
): void {
  // Marks the container until it is filled, so that tests (and styles) can tell.
  container.setAttribute('data-html-pending', '');
  const fill = () => {
    const purify = readyPurifier();
    if (!purify || !isCurrent()) return;
    container.replaceChildren(purifyToFragment(purify, html));
    container.removeAttribute('data-html-pending');
    const visible =
      (container.textContent ?? '').trim() !== '' ||
      container.querySelector('img, br, hr, video, picture, svg, input, table') !== null;
    onRendered(visible);
  };
  const enqueue = () => {
    queue.push(fill);
    schedule();
  };
  if (readyPurifier()) enqueue();
  else void loadPurifier().then(enqueue);
}

/** Keeps clicks on links inside rendered HTML from leaving the editor; Mod-click opens them. */
export function guardLinks(dom: HTMLElement): void {
  dom.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a');
    if (link && !(event.metaKey || event.ctrlKey)) event.preventDefault();
  });
}

/** A small monospace chip showing source text (a lone tag, or HTML that renders to nothing). */
export function sourceChip(text: string, className: string): HTMLElement {
  const chip = document.createElement('code');
  chip.className = className;
  chip.textContent = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return chip;
}
