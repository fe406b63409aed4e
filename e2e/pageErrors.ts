import type { Browser, ConsoleMessage, Page } from 'playwright-core';

/** What broke in a watched page since a test last asked. */
const unreported: string[] = [];

/** The test running now, which owns the pages opened meanwhile; null between tests (in hooks). */
let runningTest: string | null = null;

/** Names the test that pages opened from now on belong to (null: a hook opens them). */
export function setRunningTest(name: string | null): void {
  runningTest = name;
}

/**
 * True for console output that means the app broke even though the page went on: Tiptap's own
 * errors and warnings (it logs some problems instead of throwing them), and an icon the browser
 * asked for and did not get.
 */
function isBreakage(message: ConsoleMessage): boolean {
  const type = message.type();
  if (type !== 'error' && type !== 'warning') return false;
  if (message.text().includes('[tiptap ')) return true;
  // Chromium fetches the icon itself and reports a miss only as a console error located there.
  const source = message.location().url;
  return (
    type === 'error' && URL.canParse(source) && new URL(source).pathname.startsWith('/favicon')
  );
}

/** Records, from now on, uncaught exceptions and breakage logged in `page`. */
export function watchPage(page: Page): void {
  // A page can break after its test ended; the message then names the test that opened it.
  const owner = runningTest === null ? 'a hook' : `test "${runningTest}"`;
  const where = () => `${page.url()} (opened by ${owner})`;
  page.on('pageerror', (error) => {
    unreported.push(`${where()}: uncaught ${error.stack ?? error.message}`);
  });
  page.on('console', (message) => {
    if (!isBreakage(message)) return;
    const source = message.location().url;
    const at = source === '' ? '' : ` (at ${source})`;
    unreported.push(`${where()}: console.${message.type()} ${message.text()}${at}`);
  });
}

/** Watches every page of every context that `browser` makes from now on (see {@link watchPage}). */
export function watchBrowser(browser: Browser): void {
  browser.on('context', (context) => context.on('page', watchPage));
}

/** Throws, listing them, if watched pages broke since the last call; forgets them either way. */
export function assertNoPageErrors(): void {
  const errors = unreported.splice(0);
  if (errors.length === 0) return;
  throw new Error(`A page broke while this ran:\n${errors.join('\n')}`);
}
