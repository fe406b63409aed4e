import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { useBrowser, screenshot } from './harness.ts';
import {
  editorLocator,
  exportMarkdown,
  importMarkdown,
  openEditor,
  scriptCalls,
  type EditorSession,
} from './editorPage.ts';

const browser = useBrowser();

/** The document the formatting tests work on: one line per feature, every selected word unique. */
const LINES = {
  marks: 'Marks: one bold two italic three under four strike five code six',
  colours: 'Colours: a red word and a yellow word',
  align: 'Centered alignment line',
  heading: 'Subheading line',
  bullet: 'Bulleted line',
  link: 'Visit example or evil now',
  keyboard: 'Keyboard only',
} as const;

const toolbarOf = (page: Page) => page.getByRole('toolbar', { name: 'Text formatting' });

/** The paragraph (or other text block) whose whole text is `text`. */
const blockWithText = (page: Page, tag: string, text: string) =>
  editorLocator(page)
    .locator(tag)
    .filter({ hasText: new RegExp(`^${text}$`) });

/** The text of every element matching `selector` inside `scope`. */
const textsOf = (scope: Locator, selector: string) =>
  scope.locator(selector).evaluateAll((elements) => elements.map((e) => e.textContent));

/** True when the document itself has focus. */
const editorHasFocus = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains('ProseMirror') ?? false);

/** The selected text of the page. */
const selectedText = (page: Page) => page.evaluate(() => window.getSelection()?.toString() ?? '');

/**
 * Lets the editor catch up with a selection made by the mouse or keyboard: it reads the page's
 * selection on `selectionchange`, a task after the input, and a person is never faster than that.
 */
const settleSelection = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** Double-clicks `word` in the editor, as a person selects a word, and waits for the toolbar. */
async function selectWord(page: Page, word: string) {
  const point = await editorLocator(page).evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const pattern = new RegExp(`\\b${target}\\b`);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const index = (node.textContent ?? '').search(pattern);
      if (index < 0) continue;
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + target.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    }
    return null;
  }, word);
  assert.ok(point, `"${word}" is not in the document`);
  await page.mouse.dblclick(point.x, point.y);
  await settleSelection(page);
  assert.equal(await selectedText(page), word);
  await toolbarOf(page).waitFor({ state: 'visible' });
}

/**
 * Types `lines` as paragraphs, a frame apart: in Chromium a key typed within a few milliseconds
 * of Enter, before the new line is rendered (`content-visibility: auto`), lands behind the caret.
 */
async function typeLines(page: Page, lines: readonly string[]) {
  for (const [index, line] of lines.entries()) {
    if (index > 0) {
      await page.keyboard.press('Enter');
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    await page.keyboard.type(line);
  }
}

/** Waits until the toolbar button `name` reports `pressed`. */
const waitForPressed = (page: Page, name: string, pressed: boolean) =>
  toolbarOf(page).getByRole('button', { name, exact: true, pressed }).waitFor();

describe('the formatting bubble menu', () => {
  let session: EditorSession;
  let page: Page;

  before(async () => {
    session = await openEditor(browser());
    page = session.page;
    page.setDefaultTimeout(10_000);
    await page.waitForLoadState('networkidle');
    await editorLocator(page).click();
    await typeLines(page, Object.values(LINES));
    for (const line of Object.values(LINES)) await blockWithText(page, 'p', line).waitFor();
  });

  after(async () => {
    await session?.close();
  });

  test('each mark button wraps exactly the selected word and shows as pressed', async () => {
    const paragraph = blockWithText(page, 'p', LINES.marks);
    const marks = [
      { button: 'Bold', word: 'bold', tag: 'strong' },
      { button: 'Italic', word: 'italic', tag: 'em' },
      { button: 'Underline', word: 'under', tag: 'u' },
      { button: 'Strikethrough', word: 'strike', tag: 's' },
      { button: 'Code', word: 'code', tag: 'code' },
    ];
    for (const { button, word, tag } of marks) {
      await selectWord(page, word);
      await waitForPressed(page, button, false);
      await toolbarOf(page).getByRole('button', { name: button, exact: true }).click();
      await waitForPressed(page, button, true);
      assert.deepEqual(await textsOf(paragraph, tag), [word], `<${tag}> after ${button}`);
      // The selection survives the click, so several formats can be applied in a row.
      assert.equal(await selectedText(page), word);
    }
    assert.equal(await paragraph.textContent(), LINES.marks);
    await screenshot(page, 'menus-marks');
  });

  test('every toolbar button has an accessible name', async () => {
    await selectWord(page, 'bold');
    const labels = await toolbarOf(page)
      .locator('button')
      .evaluateAll((buttons) => buttons.map((b) => (b.getAttribute('aria-label') ?? '').trim()));
    assert.ok(
      labels.every((label) => label !== ''),
      `unnamed buttons: ${JSON.stringify(labels)}`,
    );
    for (const name of [
      'Bold',
      'Italic',
      'Underline',
      'Strikethrough',
      'Code',
      'Link',
      'Text color',
      'Highlight',
      'Align left',
      'Align center',
      'Align right',
      'Justify',
      'Turn into',
      'AI',
    ]) {
      assert.ok(labels.includes(name), `no "${name}" button in ${JSON.stringify(labels)}`);
    }
  });

  test('text colour and highlight palettes colour the selected word', async () => {
    const paragraph = blockWithText(page, 'p', LINES.colours);
    await selectWord(page, 'red');
    await toolbarOf(page).getByRole('button', { name: 'Text color', exact: true }).click();
    await page.getByRole('button', { name: 'Text color Red', exact: true }).click();
    await page.getByRole('group', { name: 'Text color' }).waitFor({ state: 'detached' });
    const coloured = paragraph.locator('span[style*="color"]');
    assert.deepEqual(await textsOf(paragraph, 'span[style*="color"]'), ['red']);
    assert.equal(
      await coloured.evaluate((span) => getComputedStyle(span).color),
      'rgb(229, 72, 77)',
    );

    await selectWord(page, 'yellow');
    await toolbarOf(page).getByRole('button', { name: 'Highlight', exact: true }).click();
    await page.getByRole('button', { name: 'Highlight Yellow', exact: true }).click();
    await page.getByRole('group', { name: 'Highlight' }).waitFor({ state: 'detached' });
    assert.deepEqual(await textsOf(paragraph, 'mark'), ['yellow']);
    assert.equal(
      await paragraph.locator('mark').evaluate((mark) => getComputedStyle(mark).backgroundColor),
      'rgba(250, 204, 21, 0.4)',
    );
    assert.equal(await paragraph.textContent(), LINES.colours);
  });

  test('Align center centres the paragraph and shows as pressed', async () => {
    const paragraph = blockWithText(page, 'p', LINES.align);
    await selectWord(page, 'alignment');
    await waitForPressed(page, 'Align center', false);
    await toolbarOf(page).getByRole('button', { name: 'Align center', exact: true }).click();
    await waitForPressed(page, 'Align center', true);
    assert.equal(await paragraph.evaluate((p) => p.style.textAlign), 'center');
    // Only the selected paragraph moves.
    assert.equal(
      await blockWithText(page, 'p', LINES.colours).evaluate((p) => p.style.textAlign),
      '',
    );
  });

  test('Turn into makes a heading and a bullet list of the selected block', async () => {
    await selectWord(page, 'Subheading');
    await toolbarOf(page).getByRole('button', { name: 'Turn into', exact: true }).click();
    await page
      .getByRole('menu', { name: 'Turn into' })
      .getByRole('menuitemradio', { name: /^Heading 2/ })
      .click();
    await blockWithText(page, 'h2', LINES.heading).waitFor();
    assert.equal(await blockWithText(page, 'p', LINES.heading).count(), 0);

    await selectWord(page, 'Bulleted');
    await toolbarOf(page).getByRole('button', { name: 'Turn into', exact: true }).click();
    await page
      .getByRole('menu', { name: 'Turn into' })
      .getByRole('menuitemradio', { name: /^Bullet list/ })
      .click();
    await editorLocator(page)
      .locator('ul:not([data-type]) > li')
      .filter({ hasText: LINES.bullet })
      .waitFor();
    assert.equal(await editorLocator(page).locator('ul').count(), 1);
  });

  test('the link popover applies a web address and refuses a javascript: one', async () => {
    const paragraph = blockWithText(page, 'p', LINES.link);
    await selectWord(page, 'example');
    await toolbarOf(page).getByRole('button', { name: 'Link', exact: true }).click();
    const address = page.getByRole('textbox', { name: 'Link address' });
    await address.fill('https://example.com');
    await page.getByRole('button', { name: 'Apply link' }).click();
    await paragraph.locator('a[href="https://example.com"]').waitFor();
    assert.deepEqual(await textsOf(paragraph, 'a'), ['example']);
    await waitForPressed(page, 'Link', true);

    await selectWord(page, 'evil');
    await page.keyboard.press('ControlOrMeta+k');
    await address.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Apply link' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /javascript:/ });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /blocked/);
    assert.deepEqual(await textsOf(paragraph, 'a'), ['example']);
    // Escape leaves the popover without a link and gives the text back its focus.
    await page.keyboard.press('Escape');
    await address.waitFor({ state: 'detached' });
    assert.ok(await editorHasFocus(page), 'focus is back in the text');
    assert.deepEqual(await textsOf(paragraph, 'a'), ['example']);
    assert.deepEqual(await scriptCalls(page), []);
  });

  test('keyboard only: Alt+F10 reaches the toolbar, Enter toggles, Escape returns to the text', async () => {
    const paragraph = blockWithText(page, 'p', LINES.keyboard);
    await paragraph.click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'only'.length; i += 1) await page.keyboard.press('Shift+ArrowLeft');
    await settleSelection(page);
    assert.equal(await selectedText(page), 'only');
    await toolbarOf(page).waitFor({ state: 'visible' });

    const focusedLabel = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
    await page.keyboard.press('Alt+F10');
    await page.waitForFunction(() =>
      document.querySelector('[role=toolbar]')?.contains(document.activeElement),
    );
    // The toolbar opens with the AI assistant, then the block and inline formats.
    assert.equal(await focusedLabel(), 'AI');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focusedLabel(), 'Turn into');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focusedLabel(), 'Bold');
    await page.keyboard.press('Enter');
    await waitForPressed(page, 'Bold', true);
    assert.deepEqual(await textsOf(paragraph, 'strong'), ['only']);
    assert.equal(await focusedLabel(), 'Bold');

    await page.keyboard.press('Escape');
    assert.ok(await editorHasFocus(page), 'focus is back in the text');
    assert.equal(await selectedText(page), 'only');
  });

  test('the export carries every format as Markdown', async () => {
    const markdown = await exportMarkdown(page);
    for (const expected of [
      '**bold**',
      '*italic*',
      '<u>under</u>',
      '~~strike~~',
      '`code`',
      '<span style="color: #e5484d">red</span>',
      '<mark style="background-color: #facc1566">yellow</mark>',
      '<div align="center">\n\nCentered alignment line\n\n</div>',
      '## Subheading line\n',
      '- Bulleted line\n',
      '[example](https://example.com)',
      'Keyboard **only**',
    ]) {
      assert.ok(
        markdown.includes(expected),
        `missing ${JSON.stringify(expected)} in:\n${markdown}`,
      );
    }
    assert.doesNotMatch(markdown, /javascript:/);
    assert.deepEqual(session.errors, []);
  });
});

test('a selected image shows its settings, and a new alt text reaches the export', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  page.setDefaultTimeout(10_000);
  await page.waitForLoadState('networkidle');
  await importMarkdown(
    page,
    'Before the image.\n\n![Old alt](https://example.com/a.png)\n\nAfter the image.\n',
  );
  const image = editorLocator(page).locator('img[src="https://example.com/a.png"]');
  await image.waitFor();
  await image.click();
  const settings = page.getByRole('group', { name: 'Image settings' });
  await settings.waitFor();
  assert.equal(await page.getByRole('toolbar', { name: 'Text formatting' }).count(), 0);
  for (const field of ['Title', 'Width']) await settings.getByLabel(field).waitFor();
  await settings.getByRole('button', { name: 'Delete image' }).waitFor();
  const alt = settings.getByLabel('Alt text');
  assert.equal(await alt.inputValue(), 'Old alt');
  await alt.fill('A new description');
  await alt.press('Enter');
  await editorLocator(page).locator('img[alt="A new description"]').waitFor();
  const markdown = await exportMarkdown(page);
  assert.match(markdown, /^!\[A new description\]\(https:\/\/example\.com\/a\.png\)$/m);
  assert.doesNotMatch(markdown, /Old alt/);
  assert.deepEqual(session.errors, []);
  await session.close();
});
