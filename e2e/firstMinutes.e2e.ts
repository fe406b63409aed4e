import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { signUp } from './auth.ts';
import { editorLocator, TOP_LEVEL } from './editorPage.ts';
import { appUrl, useBrowser } from './harness.ts';

// No assertion on errors here: the harness fails any test whose pages throw or log a Tiptap
// error, which is what this walk once did twice.

const browser = useBrowser();

const toolbarOf = (page: Page) => page.getByRole('toolbar', { name: 'Text formatting' });

/** Lets the editor render what the last key made before the next key arrives, as for a person. */
const nextFrame = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));

test("a new writer's first minutes: sign up, write, format, slash menu, import", async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(appUrl());
  await signUp(page);
  await page.getByRole('button', { name: 'New document' }).first().click();
  const editor = editorLocator(page);
  await editor.click();

  await page.keyboard.type('My first note');
  await page.keyboard.press('Shift+Home');
  await toolbarOf(page).getByRole('button', { name: 'Bold', exact: true }).click();
  await editor.locator('strong', { hasText: 'My first note' }).waitFor();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await nextFrame(page);

  await page.keyboard.type('/');
  const blocks = page.getByRole('listbox', { name: 'Blocks' });
  await blocks.waitFor();
  await page.keyboard.press('Escape');
  await blocks.waitFor({ state: 'detached' });
  await page.keyboard.type('Second line');

  // The import replaces the editor on the page. A selection made just before (here while the
  // file picker is open) starts the bubble menus' 250 ms re-check, which then ran against the
  // editor that was gone.
  await page.getByRole('button', { name: 'Document menu' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'Import Markdown…' }).click();
  const picker = await chooser;
  await editor.getByText('Second line').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  const before = page.url();
  await picker.setFiles({
    name: 'notes.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Notes\n\nSome *imported* text.\n', 'utf8'),
  });
  await page.waitForURL((url) => url.href !== before && url.pathname.startsWith('/d/'));
  await editor.locator('em', { hasText: 'imported' }).waitFor();
  assert.deepEqual(await editor.locator(TOP_LEVEL).allTextContents(), [
    'Notes',
    'Some imported text.',
  ]);

  // Longer than the menus' delay, so that a late check happens while this test still runs.
  await page.waitForTimeout(500);
  await context.close();
});

test('every page has the app icon, and /favicon.ico answers for browsers that ask for it', async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  await page.goto(appUrl());
  await signUp(page);
  await page.getByRole('button', { name: 'New document' }).first().click();
  await editorLocator(page).waitFor();
  const icons = await page
    .locator('link[rel=icon]')
    .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  assert.ok(icons.length > 0, 'the page links an icon');
  for (const href of [...icons, new URL('/favicon.ico', appUrl()).href]) {
    const res = await page.request.get(href);
    assert.equal(res.status(), 200, href);
    assert.match(res.headers()['content-type'] ?? '', /^image\//, href);
  }
  await context.close();
});
