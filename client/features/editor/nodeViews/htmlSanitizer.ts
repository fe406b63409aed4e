import { whenIdle } from '../../../lib/schedule.ts';

type Sanitize = (html: string) => string;

let sanitize: Sanitize | null = null;
let loading: Promise<Sanitize> | null = null;

/** Loads Inkwell's HTML sanitiser (kept out of the first download); resolves once it is ready. */
export function loadHtmlSanitizer(): Promise<Sanitize> {
  loading ??= import('../../../../common/editor/html/sanitize.ts').then((module) => {
    sanitize = module.sanitizeHtml;
    return sanitize;
  });
  return loading;
}

/** Loads the sanitiser when the browser is idle after the first paint. */
export function preloadHtmlSanitizer(): void {
  whenIdle(() => void loadHtmlSanitizer());
}

/**
 * Sanitises raw HTML pasted into the editor, or null while the sanitiser is still loading (the
 * raw HTML is then left out, never let in unchecked).
 */
export function sanitizeIfReady(html: string): string | null {
  return sanitize ? sanitize(html) : null;
}
