import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown, serializeMarkdown } from '../common/editor/markdown/index.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../common/vault/zipReader.ts';
import { joinChunks, ZipWriter } from '../common/vault/zipWriter.ts';
import { openEditor } from './editorPage.ts';
import { screenshot, useBrowser } from './harness.ts';

const browser = useBrowser();

/** Notes written for this test, each one the codec keeps byte for byte. */
const NOTES: Record<string, string> = {
  'Vault/Welcome.md': '# Welcome\n\nStart with the plan and the *goals*.\n',
  'Vault/Projects/Plan.md': '- one\n- two\n\n![A cat](images/cat.png)\n',
  'Vault/Projects/2026/Goals.md': 'Some **goals** for the year.\n',
  // Laid out as Obsidian writes: tabs, blanks at line ends, `> ` lines, a block id, no last newline.
  'Vault/Projects/Review.md':
    '- Shipped the import \n\t- folders\n\t\t- deeper\n\n> [!tip] \n> Keep it short. \n> \n' +
    '> Link the notes.\n^review-tip\n\n\n-   loose\n\n-   items\n\nNo newline at the end',
};

function vaultZip(): Buffer {
  const zip = new ZipWriter();
  for (const [path, text] of Object.entries(NOTES)) zip.add(path, text);
  zip.add('Vault/.obsidian/app.json', '{}');
  zip.add('Vault/images/cat.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  zip.add('../../escape.md', 'zip slip');
  return Buffer.from(joinChunks(zip.finish()));
}

async function filesOfZip(path: string): Promise<Record<string, string>> {
  const source = bytesSource(new Uint8Array(await readFile(path)));
  const files: Record<string, string> = {};
  for (const entry of await listZipEntries(source, { maxEntries: 1000 })) {
    files[entry.name] = new TextDecoder().decode(await readZipEntry(source, entry, 1e7));
  }
  return files;
}

async function download(page: Page, act: () => Promise<void>): Promise<string> {
  const event = page.waitForEvent('download');
  await act();
  return await (await event).path();
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Documents' });
const folder = (page: Page, name: string) =>
  sidebar(page).getByRole('button', { name, exact: true });

test('imports a vault zip into folders, and exports the same files', async () => {
  for (const [path, text] of Object.entries(NOTES)) {
    assert.equal(serializeMarkdown(parseMarkdown(text)), text, `${path} round-trips`);
  }
  const session = await openEditor(browser());
  const { page } = session;
  await page
    .getByLabel('Import a vault .zip')
    .setInputFiles({ name: 'Vault.zip', mimeType: 'application/zip', buffer: vaultZip() });

  const summary = page.getByRole('dialog', { name: 'Vault imported' });
  await summary.waitFor();
  const text = await summary.innerText();
  assert.match(text, /Imported 4 notes of 4 into 3 folders/);
  // Four bytes of a PNG signature are no image: the server refuses it, and says why.
  assert.match(text, /2 files not imported/);
  assert.match(text, /Vault\/images\/cat\.png: \S/);
  assert.match(text, /\.\.\/\.\.\/escape\.md: Its path climbs out of the vault/);
  assert.match(text, /Skipped 1 hidden file/);
  await summary.getByRole('button', { name: 'Done' }).click();

  // Folders start closed; opening them shows the notes inside.
  await folder(page, 'Vault').click();
  await sidebar(page)
    .getByRole('link', { name: /Welcome/ })
    .waitFor();
  await folder(page, 'Projects').click();
  await folder(page, '2026').click();
  await sidebar(page).getByRole('link', { name: /Goals/ }).click();
  await page.locator('.ProseMirror').getByText('for the year').waitFor();
  await screenshot(page, 'vault-folders');

  // The open folders are remembered across a reload.
  await page.reload();
  await sidebar(page).getByRole('link', { name: /Goals/ }).waitFor();
  assert.equal(await folder(page, 'Projects').getAttribute('aria-expanded'), 'true');
  // Closed folders stay closed too, unless they hold the open document.
  await sidebar(page)
    .getByRole('link', { name: /Welcome/ })
    .click();
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  await folder(page, 'Projects').click();
  await page.reload();
  await folder(page, 'Vault').waitFor();
  assert.equal(await folder(page, 'Projects').getAttribute('aria-expanded'), 'false');

  const vaultOnly = await download(page, async () => {
    await folder(page, 'Vault').hover();
    await sidebar(page).getByRole('button', { name: 'Export “Vault” as .zip' }).click();
  });
  assert.deepEqual(await filesOfZip(vaultOnly), NOTES);

  const everything = await download(page, async () => {
    await page.getByRole('button', { name: 'Vault menu' }).click();
    await page.getByRole('menuitem', { name: 'Export all as .zip' }).click();
  });
  const all = await filesOfZip(everything);
  // The empty document the session started with comes along at the top.
  assert.deepEqual(all, { ...NOTES, 'Untitled.md': '' });
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('imports a folder chosen with the folder picker, skipping .obsidian', async () => {
  const root = await mkdtemp(join(tmpdir(), 'inkwell-vault-'));
  try {
    const files: Record<string, string> = {
      ...NOTES,
      'Vault/.obsidian/app.json': '{}',
      'Vault/images/cat.png': 'not really a png',
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const session = await openEditor(browser());
    const { page } = session;
    await page.getByLabel('Import a vault folder').setInputFiles(join(root, 'Vault'));
    const summary = page.getByRole('dialog', { name: 'Vault imported' });
    await summary.waitFor();
    const text = await summary.innerText();
    assert.match(text, /Imported 4 notes of 4 into 3 folders/);
    assert.match(text, /1 file not imported/);
    assert.match(text, /Vault\/images\/cat\.png: \S/);
    await summary.getByRole('button', { name: 'Done' }).click();
    await folder(page, 'Vault').click();
    await folder(page, 'Projects').click();
    await sidebar(page).getByRole('link', { name: /Plan/ }).waitFor();
    assert.deepEqual(session.errors, []);
    await session.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('imports a .zip dropped on the page with the sidebar closed, and leaves the open document alone', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const before = page.url();
  await page.getByRole('button', { name: 'Sidebar' }).click();
  await sidebar(page).waitFor({ state: 'hidden' });
  const zip = [...vaultZip()];
  const transfer = await page.evaluateHandle((bytes) => {
    const data = new DataTransfer();
    const file = new File([new Uint8Array(bytes)], 'Vault.zip', { type: 'application/zip' });
    data.items.add(file);
    return data;
  }, zip);
  await page.locator('.ProseMirror').dispatchEvent('drop', { dataTransfer: transfer });
  const summary = page.getByRole('dialog', { name: 'Vault imported' });
  await summary.waitFor();
  assert.match(await summary.innerText(), /Imported 4 notes of 4/);
  await summary.getByRole('button', { name: 'Done' }).click();
  // The sidebar opened to show the progress, and shows the new folder.
  await folder(page, 'Vault').waitFor();
  assert.equal(page.url(), before);
  assert.equal((await page.locator('.ProseMirror').innerText()).trim(), '');
  assert.deepEqual(session.errors, []);
  await session.close();
});
