import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { appUrl, collectPageErrors, launchBrowser, screenshot } from './harness.ts';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

test('opens the app with an editable document', async () => {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  await page.goto(appUrl());

  assert.match(await page.title(), /Inkwell$/);
  await page.locator('.ProseMirror[contenteditable=true]').waitFor({ state: 'visible' });
  await screenshot(page, 'smoke');
  assert.deepEqual(errors, []);
  await page.close();
});
