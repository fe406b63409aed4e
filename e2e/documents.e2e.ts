import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { DocumentRecord, ListDocumentsResponse } from '../common/api/documents.ts';
import { editorLocator, importMarkdown, openEditor, type EditorSession } from './editorPage.ts';
import { appUrl, useBrowser, screenshot } from './harness.ts';

const browser = useBrowser();

/** Types at the end of the document. */
async function typeAtEnd(page: Page, text: string) {
  await editorLocator(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

const saved = (page: Page) => page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

/** The signed-in user's documents with their text, read from the server. */
async function serverDocuments(session: EditorSession): Promise<{ title: string; text: string }[]> {
  const list = (await (
    await session.context.request.get(`${appUrl()}/api/documents`)
  ).json()) as ListDocumentsResponse;
  return Promise.all(
    list.documents.map(async (summary) => {
      const res = await session.context.request.get(`${appUrl()}/api/documents/${summary.id}`);
      const { document } = (await res.json()) as { document: DocumentRecord };
      return { title: document.title, text: JSON.stringify(document.content) };
    }),
  );
}

/**
 * One document open in two tabs of `session`: tab A wrote "Shared start." and saved, then tab B
 * opened it, wrote `inB` and saved. Returns both tabs; tab A still holds the first version.
 */
async function twoTabsOneDocument(session: EditorSession, inB: string) {
  const tabA = session.page;
  await typeAtEnd(tabA, 'Shared start.');
  await saved(tabA);
  const tabB = await session.context.newPage();
  await tabB.goto(tabA.url());
  await editorLocator(tabB).getByText('Shared start.').waitFor();
  await typeAtEnd(tabB, inB);
  await saved(tabB);
  return { tabA, tabB };
}

test('two tabs on one document: the stale save gets 409, the writer keeps both, and no text is lost', async () => {
  const session = await openEditor(browser());
  const { tabA } = await twoTabsOneDocument(session, ' Written in tab B.');

  await typeAtEnd(tabA, ' Written in tab A.');
  // It cannot be dismissed without a choice, hence an alert dialog.
  const dialog = tabA.getByRole('alertdialog', { name: 'This document was changed elsewhere' });
  await dialog.waitFor({ timeout: 15_000 });
  await screenshot(tabA, 'conflict');
  await dialog.getByRole('button', { name: /Keep both/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  await saved(tabA);

  const texts = (await serverDocuments(session)).map((doc) => doc.text).join('\n');
  assert.match(texts, /Written in tab A\./);
  assert.match(texts, /Written in tab B\./);
  const titles = (await serverDocuments(session)).map((doc) => doc.title);
  assert.ok(
    titles.some((title) => title.endsWith('(my copy)')),
    titles.join(', '),
  );
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('the same words saved from another tab are taken without asking', async () => {
  const session = await openEditor(browser());
  const { tabA } = await twoTabsOneDocument(session, ' The same ending.');

  // Tab A writes the very same words: its save meets tab B's version, whose content is the
  // same, so there is nothing to choose between.
  await typeAtEnd(tabA, ' The same ending.');
  await saved(tabA);
  const dialog = tabA.getByRole('alertdialog', { name: 'This document was changed elsewhere' });
  assert.equal(await dialog.count(), 0, 'no conflict dialog for identical content');
  const texts = (await serverDocuments(session)).map((doc) => doc.text);
  assert.equal(texts.length, 1);
  assert.equal(texts[0]?.split('The same ending.').length, 2, 'the ending is there once');
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('editing offline is kept on the device and saved when the connection returns', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await typeAtEnd(page, 'Before the tunnel.');
  await saved(page);

  await context.setOffline(true);
  await typeAtEnd(page, ' Typed in the tunnel.');
  await page.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  await context.setOffline(false);
  await saved(page);

  const texts = (await serverDocuments(session)).map((doc) => doc.text).join('\n');
  assert.match(texts, /Before the tunnel\. Typed in the tunnel\./);
  await session.close();
});

test('edits that never reached the server are offered back after the tab is closed', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await typeAtEnd(page, 'Saved part.');
  await saved(page);
  const url = page.url();

  await context.setOffline(true);
  await typeAtEnd(page, ' Unsaved part.');
  await page.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  // Closing without running beforeunload, as a crash would.
  await page.close({ runBeforeUnload: false });
  await context.setOffline(false);

  const again = await context.newPage();
  await again.goto(url);
  await again.getByText('Restored unsaved changes from this device').waitFor();
  await editorLocator(again).getByText('Saved part. Unsaved part.').waitFor();
  await saved(again);
  const texts = (await serverDocuments(session)).map((doc) => doc.text).join('\n');
  assert.match(texts, /Saved part\. Unsaved part\./);
  await session.close();
});

test('a long document saves from a worker, also once the connection is back', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  // ~200 KB of Markdown: its saves are large enough to be sent off the main thread.
  const sections = Array.from(
    { length: 400 },
    (_, i) =>
      `## Section ${i + 1}\n\nSome *prose* for section ${i + 1}, long enough to weigh: ${'word '.repeat(60)}`,
  );
  await importMarkdown(page, `# A long document\n\n${sections.join('\n\n')}\n`, 'long.md');
  await saved(page);
  const workers = page.workers().map((worker) => worker.url());
  assert.ok(
    workers.some((url) => /fetchWorker/.test(url)),
    `the create went through the worker: ${workers.join(', ')}`,
  );

  await context.setOffline(true);
  await typeAtEnd(page, ' Written offline at the very end.');
  await page.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  await context.setOffline(false);
  await saved(page);

  const [stored] = (await serverDocuments(session)).filter((doc) => doc.title === 'long');
  assert.ok(stored, 'the imported document is on the server');
  assert.match(stored.text, /Section 400/);
  assert.match(stored.text, /word Written offline at the very end\."/);
  await session.close();
});
