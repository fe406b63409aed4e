import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';

export { CHROMIUM_PATH } from '../e2e/chromium.ts';

/** The viewport of every benchmark page. */
export const VIEWPORT = { width: 1280, height: 900 };

/**
 * Runs `use` with a Chromium context on a fresh profile in a temporary folder, so that runs share
 * no storage or cache, and removes the profile afterwards.
 */
export async function withBrowser<T>(use: (context: BrowserContext) => Promise<T>): Promise<T> {
  const profile = await mkdtemp(join(tmpdir(), 'inkwell-bench-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
    });
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * Opens `url` in a new tab and waits until `ready` holds in the page. Errors the page throws are
 * printed, and named in the error when it never gets ready.
 */
export async function openPage(
  context: BrowserContext,
  url: string,
  ready: () => boolean,
  timeoutMs = 30_000,
): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    errors.push(error.message);
    console.error(`[page error] ${error.message}`);
  });
  await page.goto(url);
  try {
    await page.waitForFunction(ready, undefined, { timeout: timeoutMs });
  } catch (error) {
    const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const detail = [cause, ...errors].join('; ');
    throw new Error(`${url} did not get ready: ${detail}`, { cause: error });
  }
  return page;
}
