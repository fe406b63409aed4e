import { loadPurifier, purifyToFragment, readyPurifier } from './purifier.ts';

/**
 * Fills `container` with the sanitised `html`, synchronously when DOMPurify is already loaded,
 * else once it is. `isCurrent` guards against a late load overwriting a newer render;
 * `onRendered` learns whether anything visible came out.
 */
export function renderSanitized(
  container: HTMLElement,
  html: string,
  isCurrent: () => boolean,
  onRendered: (visible: boolean) => void,
): void {
  const fill = () => {
    const purify = readyPurifier();
    if (!purify || !isCurrent()) return;
    container.replaceChildren(purifyToFragment(purify, html));
    const visible =
      (container.textContent ?? '').trim() !== '' ||
      container.querySelector('img, br, hr, video, picture, svg, input, table') !== null;
    onRendered(visible);
  };
  if (readyPurifier()) fill();
  else void loadPurifier().then(fill);
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
