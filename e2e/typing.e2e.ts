import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { editorLocator, openEditor } from './editorPage.ts';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

test('fast typing across new lines puts every key where the caret is', async () => {
  // Keys 0 ms apart, as from a text expander or a fast typist: a block that is still skipped by
  // content-visibility when the next key arrives must not swallow or misplace it.
  for (let round = 0; round < 3; round++) {
    const session = await openEditor(browser);
    const { page } = session;
    await editorLocator(page).click();
    await page.keyboard.type('Line one\nSecond\nThird\nFourth\nFifth');
    const paragraphs = await editorLocator(page).locator(':scope > p').allTextContents();
    assert.deepEqual(paragraphs, ['Line one', 'Second', 'Third', 'Fourth', 'Fifth']);
    await session.close();
  }
});
