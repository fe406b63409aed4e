import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import {
  TOP_LEVEL,
  TOP_LEVEL_PARENT,
  editorLocator,
  importMarkdown,
  openEditor,
} from './editorPage.ts';

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
    const paragraphs = await editorLocator(page)
      .locator(`${TOP_LEVEL_PARENT} > p`)
      .allTextContents();
    assert.deepEqual(paragraphs, ['Line one', 'Second', 'Third', 'Fourth', 'Fifth']);
    await session.close();
  }
});

test('Ctrl+End and Ctrl+Home reach the ends of a long document, rendered or not', async () => {
  const session = await openEditor(browser);
  const { page } = session;
  // Long enough that both ends are far off-screen and skipped by content-visibility.
  const sections = Array.from(
    { length: 300 },
    (_, i) => `## Part ${i + 1}\n\nText of part ${i + 1}: ${'filler '.repeat(50).trim()}.`,
  );
  await importMarkdown(page, `# Top\n\n${sections.join('\n\n')}\n\nThe last line.\n`, 'ends.md');
  const editor = editorLocator(page);
  await editor.locator(`${TOP_LEVEL_PARENT} > h2`).nth(150).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' THE END');
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('THE START ');
  const blocks = await editor.locator(TOP_LEVEL).allTextContents();
  assert.equal(blocks.at(-1), 'The last line. THE END');
  assert.equal(blocks[0], 'THE START Top');
  // The caret's block is on screen after each jump: the page scrolled with it.
  const top = await editor.locator(TOP_LEVEL).first().boundingBox();
  assert.ok(top && top.y >= 0 && top.y < 900, `the first block is in view: ${JSON.stringify(top)}`);

  // With Shift, the selection grows to the end: typing replaces everything after the caret.
  await page.keyboard.press('Control+Shift+End');
  await page.keyboard.type('replaced');
  // (The heading left alone gets an empty paragraph after it, as any last heading does.)
  assert.deepEqual(await editor.locator(TOP_LEVEL).allTextContents(), ['THE START replaced', '']);
  await session.close();
});
