import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { ConsoleMessage, Page } from 'playwright-core';
import { parseMarkdown, serializeMarkdown } from '../common/editor/markdown/index.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../common/vault/zipReader.ts';
import { joinChunks, ZipWriter } from '../common/vault/zipWriter.ts';
import { bombPng, pngImage } from '../server/test/images.ts';
import { editorLocator, exportMarkdown, holdUploads, openEditor } from './editorPage.ts';
import { useBrowser } from './harness.ts';

const browser = useBrowser();

/** A note written for this test: Obsidian embeds of the vault's images, and hostile ones. */
const NOTE =
  'Look: ![[diagram.png]]\n\nSmaller: ![[sub/chart.png|300]]\n\n' +
  'Hostile: ![[../../etc/passwd]] ![[../../escape.png]] ![[bomb.png]]\n';

async function vaultZip(): Promise<Buffer> {
  const zip = new ZipWriter();
  zip.add('Vault/Notes/Plan.md', NOTE);
  zip.add('Vault/Attachments/diagram.png', await pngImage(40, 30));
  zip.add('Vault/sub/chart.png', await pngImage(600, 20));
  // A few hundred bytes claiming 50,000 × 50,000 pixels: refused by the server, said why.
  zip.add('Vault/bomb.png', bombPng());
  zip.add('../../escape.png', await pngImage(4, 4));
  return Buffer.from(joinChunks(zip.finish()));
}

async function unzipText(path: string): Promise<Record<string, string>> {
  const source = bytesSource(new Uint8Array(await readFile(path)));
  const files: Record<string, string> = {};
  for (const entry of await listZipEntries(source, { maxEntries: 100 })) {
    files[entry.name] = new TextDecoder().decode(await readZipEntry(source, entry, 1e7));
  }
  return files;
}

/** Every console error of `page`, whatever it says (the harness checks only some). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('a vault zip’s ![[embeds]] show their images, export as written, and hostile ones say why', async () => {
  assert.equal(serializeMarkdown(parseMarkdown(NOTE)), NOTE, 'the note round-trips in the codec');
  const session = await openEditor(browser());
  const { page } = session;
  const logged = consoleErrors(page);
  try {
    // Uploads wait at a gate, so that the images' stage of the progress can be seen.
    const release = await holdUploads(page);
    await page.getByLabel('Import a vault .zip').setInputFiles({
      name: 'Vault.zip',
      mimeType: 'application/zip',
      buffer: await vaultZip(),
    });
    const progress = page.getByRole('progressbar', { name: 'Uploading images…' });
    await progress.waitFor();
    assert.match((await progress.getAttribute('aria-valuetext')) ?? '', /^0 of 3$/);
    release();

    const summary = page.getByRole('dialog', { name: 'Vault imported' });
    await summary.waitFor();
    const text = await summary.innerText();
    assert.match(text, /Imported 1 note of 1 into 1 folder, with 2 images/);
    assert.match(text, /\.\.\/\.\.\/escape\.png: Its path climbs out of the vault/);
    assert.match(text, /Vault\/bomb\.png: \S/, 'the bomb is listed with the server’s reason');
    await summary.getByRole('button', { name: 'Done' }).click();

    const sidebar = page.getByRole('complementary', { name: 'Documents' });
    await sidebar.getByRole('button', { name: 'Vault', exact: true }).click();
    await sidebar.getByRole('button', { name: 'Notes', exact: true }).click();
    await sidebar.getByRole('link', { name: /Plan/ }).click();
    const shown = editorLocator(page).locator('.ink-wikilink[data-state="image"] img');
    await page.waitForFunction(() => {
      const images = [
        // The live editor's: the saved copy shown read-only before it may be all there is yet.
        ...document.querySelectorAll<HTMLImageElement>(
          '.ProseMirror[contenteditable=true] .ink-wikilink img',
        ),
      ];
      return images.length === 2 && images.every((image) => image.complete);
    });
    assert.deepEqual(
      await shown.evaluateAll((images) =>
        images.map((image) => [
          (image as HTMLImageElement).alt,
          (image as HTMLImageElement).naturalWidth,
          image.getAttribute('width'),
        ]),
      ),
      [
        ['diagram.png', 40, null],
        ['sub/chart.png', 600, '300'],
      ],
    );
    // The hostile embeds stay as written, each a chip that says what it is.
    const chips = editorLocator(page).locator('.ink-wikilink:not([data-state="image"])');
    assert.deepEqual(await chips.allInnerTexts(), [
      '../../etc/passwd',
      '../../escape.png · not available yet',
      'bomb.png · not available yet',
    ]);

    assert.equal(await exportMarkdown(page), NOTE);
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Vault menu' }).click();
    await page.getByRole('menuitem', { name: 'Export all as .zip' }).click();
    const files = await unzipText(await (await exported).path());
    assert.equal(files['Vault/Notes/Plan.md'], NOTE);
    // The embeds' images come along where Obsidian finds them again; the hostile ones do not.
    assert.deepEqual(Object.keys(files).sort(), [
      'Untitled.md',
      'Vault/Notes/Plan.md',
      'Vault/diagram.png',
      'Vault/sub/chart.png',
    ]);
    assert.equal(files['Vault/diagram.png']?.slice(1, 4), 'PNG');
    assert.deepEqual(session.errors, []);
    // The app logs nothing; Chromium itself logs the one refused request, the bomb's upload.
    assert.deepEqual(logged, [
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
  } finally {
    await session.close();
  }
});
