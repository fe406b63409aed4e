import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Editor } from '@tiptap/core';
import { useBrowser } from './harness.ts';
import {
  TOP_LEVEL,
  TOP_LEVEL_PARENT,
  editorLocator,
  importMarkdown,
  openEditor,
} from './editorPage.ts';

const browser = useBrowser();

test('fast typing across new lines puts every key where the caret is', async () => {
  // Keys 0 ms apart, as from a text expander or a fast typist: a block that is still skipped by
  // content-visibility when the next key arrives must not swallow or misplace it.
  for (let round = 0; round < 3; round++) {
    const session = await openEditor(browser());
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
  const session = await openEditor(browser());
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

test('lines join, select and format across the chunks that hold a long document', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const lines = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of a long document.`);
  const markdown = `${lines.join('\n\n')}\n`;
  await importMarkdown(page, markdown, 'lines.md');
  const editor = editorLocator(page);
  const chunks = editor.locator(TOP_LEVEL_PARENT);
  assert.ok((await chunks.count()) > 1, 'a 200-block document is held in several chunks');

  // Backspace at the start of the second chunk's first line joins it with the line before.
  const firstOfSecond = chunks.nth(1).locator(':scope > p').first();
  const joined = (await firstOfSecond.textContent()) ?? '';
  const before = (await chunks.nth(0).locator(':scope > p').last().textContent()) ?? '';
  await firstOfSecond.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await firstOfSecond.click();
  await page.keyboard.press('Home');
  // As a person's next key would, Backspace comes once the editor has taken the caret's place
  // (Playwright's keys can outrun the selectionchange that tells it).
  await page.waitForFunction((text) => {
    const root = document.querySelector('.ProseMirror') as Element & { editor?: Editor };
    const $from = root.editor?.state.selection.$from;
    return $from?.parentOffset === 0 && $from.parent.textContent === text;
  }, joined);
  await page.keyboard.press('Backspace');
  const blocks = await editor.locator(TOP_LEVEL).allTextContents();
  assert.equal(blocks.length, 199);
  assert.ok(blocks.includes(`${before}${joined}`), `"${before}" and "${joined}" joined`);
  await page.keyboard.press('ControlOrMeta+z');
  assert.deepEqual(await editor.locator(TOP_LEVEL).allTextContents(), lines);

  // A mouse selection from one chunk into the next, made bold, bolds both lines' parts.
  const from = editor.locator(TOP_LEVEL).nth(60);
  const to = editor.locator(TOP_LEVEL).nth(70);
  // Centred, clear of the sticky top bar.
  await editor
    .locator(TOP_LEVEL)
    .nth(65)
    .evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  assert.ok(start && end, 'both lines are laid out');
  await page.mouse.move(start.x + 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + 40, end.y + end.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction(() => {
    const root = document.querySelector('.ProseMirror') as Element & { editor?: Editor };
    const selection = root.editor?.state.selection;
    return selection !== undefined && selection.$from.parent !== selection.$to.parent;
  });
  await page.keyboard.press('ControlOrMeta+b');
  const bold = await editor.locator('strong').allTextContents();
  assert.equal(bold.length, 11, `lines 61 to 71 hold bold text: ${JSON.stringify(bold)}`);
  assert.match(bold[0] ?? '', /^Line 61/);
  await session.close();
});
