import { mkdir } from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { assertNoPageErrors, setRunningTest, watchBrowser } from './pageErrors.ts';
import { ROOT, URL_VARIABLE } from './server.ts';

export { startServer, type RunningServer } from './server.ts';

/*
 * Every browser test fails when a page broke while it ran: an uncaught exception, a Tiptap error
 * or warning, a missing app icon (launchBrowser watches every page, see pageErrors.ts). What
 * breaks after the last test fails the file. This module registers node:test hooks, so only
 * test files import it (run.ts and the benchmarks use server.ts and chromium.ts).
 */
beforeEach((t) => setRunningTest(t.name));

// A test file stopped by a signal (Ctrl-C, the runner cancelling it) exits through process.exit,
// so that the 'exit' handlers that stop the servers, Redis and PostgreSQL it started still run:
// a process killed by a signal runs none, and they would outlive it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => process.exit(128 + constants.signals[signal]));
}
afterEach(() => {
  setRunningTest(null);
  assertNoPageErrors();
});
after(assertNoPageErrors);

/** Where screenshots go (gitignored). */
export const ARTIFACTS_DIR = join(ROOT, '.tmp', 'e2e');

/**
 * Starts Debian's chromium headless, watching every page it opens (see pageErrors.ts). Playwright
 * gives every launch a fresh profile in a temporary folder and deletes it on `close()`, so runs
 * never share cookies, storage or cache. `args` adds Chromium flags (such as host mapping).
 */
export async function launchBrowser(options: { args?: string[] } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  watchBrowser(browser);
  return browser;
}

/** The URL of the server `e2e/run.ts` started for this run. */
export function appUrl(): string {
  const url = process.env[URL_VARIABLE];
  if (!url) throw new Error(`${URL_VARIABLE} is not set: run browser tests with npm run test:e2e`);
  return url;
}

/** Saves a full-page screenshot as `.tmp/e2e/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Collects what would otherwise fail silently in the page: uncaught exceptions and console
 * errors (Content-Security-Policy violations among them).
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * One browser for the tests of a file: launched before the first, closed after the last. Returns
 * a getter, as the browser exists only once the file's tests start.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('useBrowser: the browser is launched before the first test');
    return browser;
  };
}
