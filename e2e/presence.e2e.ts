import { test } from 'node:test';
import { caretAtEnd, LIVE_TIMEOUT_MS, saved } from './collabPage.ts';
import { editorLocator, openEditor } from './editorPage.ts';
import { useBrowser } from './harness.ts';

/*
 * Who else has a document open, in the status bar (docs/ARCHITECTURE.md "Live collaboration",
 * "Presence"): the server's summary and the carets a page holds.
 */

const browser = useBrowser();

test('two tabs on one document each show the other in the status bar, and stop when it leaves', async () => {
  const session = await openEditor(browser());
  const tabA = session.page;
  await caretAtEnd(tabA);
  await tabA.keyboard.type('Here');
  await saved(tabA);
  const strip = (page: typeof tabA) => page.locator('.ink-status .ink-presence');
  // Alone: nobody else to show.
  await strip(tabA).waitFor({ state: 'hidden', timeout: LIVE_TIMEOUT_MS });

  const tabB = await session.context.newPage();
  await tabB.goto(tabA.url());
  await editorLocator(tabB).getByText('Here').waitFor();
  for (const tab of [tabA, tabB]) {
    await tab
      .locator('.ink-status .ink-presence[aria-label="2 people here"] .ink-presence__face')
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
  }

  await tabB.close();
  await strip(tabA).waitFor({ state: 'hidden', timeout: LIVE_TIMEOUT_MS });
});
