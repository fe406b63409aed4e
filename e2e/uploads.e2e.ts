import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { signUp } from './auth.ts';
import { editorLocator, holdUploads, importMarkdown, openEditor, sendFiles } from './editorPage.ts';
import { appUrl, useBrowser } from './harness.ts';

const browser = useBrowser();

const saved = (page: Page) => page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
const uploadedImages = (page: Page) => editorLocator(page).locator('img[src^="/files/"]');

test('a pasted screenshot shows at once with progress, is uploaded, and is there after a reload', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    const release = await holdUploads(page);
    await sendFiles(page, 'paste', [120]);
    // The local preview and the progress bar, before the server has the file.
    const placeholder = editorLocator(page).locator('.ink-upload');
    await placeholder.waitFor();
    assert.match((await placeholder.locator('img').getAttribute('src')) ?? '', /^blob:/);
    assert.equal(await placeholder.getByRole('progressbar').count(), 1);
    assert.equal(await uploadedImages(page).count(), 0);
    release();
    await uploadedImages(page).first().waitFor();
    assert.equal(await placeholder.count(), 0);
    await saved(page);
    const html = await editorLocator(page).innerHTML();
    assert.doesNotMatch(html, /blob:|data:image/);

    await page.reload();
    const image = uploadedImages(page).first();
    await image.waitFor();
    await page.waitForFunction(
      () => (document.querySelector('.ProseMirror img') as HTMLImageElement | null)?.complete,
    );
    assert.equal(
      await image.evaluate((img) => (img as HTMLImageElement).naturalWidth),
      120,
      'the image loads from the server after a reload',
    );
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('two dropped files go in at the drop point in the order dropped; undo and redo take them out and back', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    await editorLocator(page).pressSequentially('First line');
    await page.keyboard.press('Enter');
    await editorLocator(page).pressSequentially('Second line');
    const release = await holdUploads(page);
    await sendFiles(page, 'drop', [40, 80]);
    await editorLocator(page).locator('.ink-upload').nth(1).waitFor();
    release();
    await uploadedImages(page).nth(1).waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.ProseMirror img')].every((i) => i.complete),
    );
    const widths = await uploadedImages(page).evaluateAll((images) =>
      images.map((img) => (img as HTMLImageElement).naturalWidth),
    );
    assert.deepEqual(widths, [40, 80]);
    // Dropped on the first line: the images sit right after it, before the second.
    const order = await editorLocator(page).evaluate((editor) =>
      [...editor.querySelectorAll('p, img')].map((e) =>
        e.tagName === 'IMG' ? 'img' : (e.textContent ?? ''),
      ),
    );
    assert.deepEqual(order, ['First line', 'img', 'img', 'Second line']);

    const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
    await editorLocator(page).focus();
    await page.keyboard.press(`${mod}+z`);
    await page.keyboard.press(`${mod}+z`);
    assert.equal(await uploadedImages(page).count(), 0);
    await page.keyboard.press(`${mod}+Shift+z`);
    await page.keyboard.press(`${mod}+Shift+z`);
    assert.equal(await uploadedImages(page).count(), 2);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('Cancel stops an upload and leaves nothing behind', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    await holdUploads(page);
    await sendFiles(page, 'paste', [60]);
    const placeholder = editorLocator(page).locator('.ink-upload');
    await placeholder.getByRole('button', { name: 'Cancel' }).click();
    await placeholder.waitFor({ state: 'detached' });
    assert.equal(await editorLocator(page).locator('img').count(), 0);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('a file that is not an image is refused with the reason and leaves no placeholder', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    await sendFiles(page, 'paste', [1], '<html><script>alert(1)</script></html>');
    await page
      .getByText(/PNG, JPEG, GIF, WebP|not an image|image type/i)
      .first()
      .waitFor();
    assert.equal(await editorLocator(page).locator('.ink-upload, img').count(), 0);
    assert.deepEqual(
      await page.evaluate(() => (window as { __scriptRan?: string[] }).__scriptRan),
      [],
    );
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test("another person's browser gets 404 for an uploaded image's address", async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const stranger = await browser().newContext();
  try {
    await sendFiles(page, 'paste', [30]);
    const src = await uploadedImages(page).first().getAttribute('src');
    assert.ok(src);
    const own = await page.request.get(new URL(src, appUrl()).href);
    assert.equal(own.status(), 200);
    assert.equal(own.headers()['content-type'], 'image/png');

    const other = await stranger.newPage();
    await other.goto(appUrl());
    await signUp(other);
    const theirs = await other.request.get(new URL(src, appUrl()).href);
    assert.equal(theirs.status(), 404);
    const signedOut = await browser().newContext();
    const anonymous = await signedOut.request.get(new URL(src, appUrl()).href);
    assert.equal(anonymous.status(), 404);
    await signedOut.close();
  } finally {
    await stranger.close();
    await session.close();
  }
});

test('a Markdown file that embeds screenshots as data: addresses imports them as uploaded files', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 50;
      canvas.height = 10;
      return canvas.toDataURL('image/png');
    });
    // Nothing of the new document is asked for before the server has it (its backlinks were: 404).
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await importMarkdown(page, `# Notes\n\n![shot](${png})\n\nAfter the image.\n`, 'shots.md');
    await uploadedImages(page).first().waitFor();
    await saved(page);
    assert.doesNotMatch(await editorLocator(page).innerHTML(), /data:image/);
    assert.equal(await uploadedImages(page).first().getAttribute('alt'), 'shot');
    await editorLocator(page).getByText('After the image.').waitFor();
    assert.deepEqual(refused, []);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});
