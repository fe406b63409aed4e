import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { bytesSource, listZipEntries, readZipEntry } from '../common/vault/zipReader.ts';
import { joinChunks, ZipWriter } from '../common/vault/zipWriter.ts';
import { editorLocator, openEditor, runMenuItem } from './editorPage.ts';
import { useBrowser } from './harness.ts';

const browser = useBrowser();

const saved = (page: Page) => page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

/** Pastes a PNG drawn in the page, `width` × 20, named `name`. */
async function pasteImage(page: Page, width: number, name: string): Promise<void> {
  await editorLocator(page).evaluate(
    async (editor, { width, name }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = 20;
      const context = canvas.getContext('2d');
      if (context) {
        context.fillStyle = 'teal';
        context.fillRect(0, 0, width, 20);
      }
      const blob = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no blob'))), 'image/png'),
      );
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], name, { type: 'image/png' }));
      editor.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { width, name },
  );
}

async function unzip(path: string): Promise<Record<string, Uint8Array>> {
  const source = bytesSource(new Uint8Array(await readFile(path)));
  const files: Record<string, Uint8Array> = {};
  for (const entry of await listZipEntries(source, { maxEntries: 100 })) {
    files[entry.name] = await readZipEntry(source, entry, 10 * 1024 * 1024);
  }
  return files;
}

test('export with images downloads a zip of the Markdown and its pasted images, linked relatively', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    await page.getByLabel('Document title').fill('Field notes');
    await editorLocator(page).pressSequentially('Two shots:');
    await page.keyboard.press('Enter');
    await pasteImage(page, 120, 'first shot.png');
    await editorLocator(page).locator('img[src^="/files/"]').first().waitFor();
    await pasteImage(page, 80, 'second.png');
    await editorLocator(page).locator('img[src^="/files/"]').nth(1).waitFor();
    await saved(page);

    const download = page.waitForEvent('download');
    await runMenuItem(page, 'Export with images');
    const file = await download;
    assert.equal(file.suggestedFilename(), 'Field notes.zip');
    const files = await unzip(await file.path());
    assert.deepEqual(Object.keys(files).sort(), [
      'Field notes.md',
      'images/first-shot.png',
      'images/second.png',
    ]);
    const markdown = new TextDecoder().decode(files['Field notes.md']);
    assert.match(markdown, /!\[[^\]]*\]\(images\/first-shot\.png\)/);
    assert.match(markdown, /!\[[^\]]*\]\(images\/second\.png\)/);
    assert.doesNotMatch(markdown, /\/files\//, 'no link points back at the server');
    // The PNG signature: the image's bytes, not an error page.
    assert.deepEqual([...(files['images/first-shot.png'] ?? []).slice(0, 4)], [137, 80, 78, 71]);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const NOTE = 'Look:\n\n![dot](images/dot.png)\n\n![bad](images/fake.png)\n';

test('a zip with a note and its images imports the images, links the note to them, and exports back the same', async () => {
  const zip = new ZipWriter();
  zip.add('Album/Day one.md', NOTE);
  zip.add('Album/images/dot.png', PNG);
  zip.add('Album/images/fake.png', '<html>not an image</html>');
  zip.add('Album/guide.pdf', '%PDF-1.4');
  const session = await openEditor(browser());
  const { page } = session;
  try {
    await page.getByLabel('Import a vault .zip').setInputFiles({
      name: 'Album.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(joinChunks(zip.finish())),
    });
    const summary = page.getByRole('dialog', { name: 'Vault imported' });
    await summary.waitFor();
    const text = await summary.innerText();
    assert.match(text, /Imported 1 note of 1 into 1 folder, with 1 image/);
    assert.match(text, /Album\/images\/fake\.png: \S/, 'the refused file is listed with a reason');
    assert.match(text, /1 attachment kept for later/);
    assert.match(text, /Album\/guide\.pdf/);
    await summary.getByRole('button', { name: 'Done' }).click();

    const sidebar = page.getByRole('complementary', { name: 'Documents' });
    await sidebar.getByRole('button', { name: 'Album', exact: true }).click();
    await sidebar.getByRole('link', { name: /Day one/ }).click();
    const image = editorLocator(page).locator('img[src^="/files/"]');
    await image.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('.ProseMirror img[src^="/files/"]') as HTMLImageElement | null)
          ?.complete,
    );
    assert.equal(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth), 1);
    // The refused image keeps its link as written.
    assert.equal(await editorLocator(page).locator('img[src="images/fake.png"]').count(), 1);

    // Exported again, the vault holds the note as it came in and the image at its path.
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Vault menu' }).click();
    await page.getByRole('menuitem', { name: 'Export all as .zip' }).click();
    const files = await unzip(await (await exported).path());
    assert.equal(new TextDecoder().decode(files['Album/Day one.md']), NOTE);
    assert.ok(files['Album/images/dot.png'], 'the image is in the zip at its path');
    assert.deepEqual([...(files['Album/images/dot.png'] ?? []).slice(0, 4)], [137, 80, 78, 71]);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});
