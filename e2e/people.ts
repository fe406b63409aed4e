import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newAccount, signUp, type TestAccount } from './auth.ts';
import { RECORD_SCRIPT_CALLS } from './editorPage.ts';
import { appUrl, collectPageErrors } from './harness.ts';

/*
 * People for the browser tests of what several accounts share (sharing, history): each signed up
 * in a browser context of their own, with what their page let slip recorded.
 */

/** Someone signed up in a context of their own, on the app's home page. */
export interface Person {
  account: TestAccount;
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and console errors of the page. */
  errors: string[];
  /** The page's own API calls that failed (status ≥ 400), as `status path`. */
  apiFailures: string[];
}

/** Signs `name` up in a fresh context of `browser`, with alert/confirm/prompt/print recorded. */
export async function person(browser: Browser, name: string): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: RECORD_SCRIPT_CALLS });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const apiFailures: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/') && response.status() >= 400) {
      apiFailures.push(`${response.status()} ${pathname}`);
    }
  });
  await page.goto(appUrl());
  const account = await signUp(page, newAccount(name));
  return { account, context, page, errors, apiFailures };
}
