import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { DocumentRecord, ListDocumentsResponse } from '../common/api/documents.ts';
import { editorLocator, importMarkdown, openEditor, type EditorSession } from './editorPage.ts';
import { appUrl, useBrowser } from './harness.ts';

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

// Before live collaboration, a stale save met a 409 and the conflict dialog; now the tabs share
// one document, and neither asks.
test("two tabs on one document: each shows the other's words, nothing asks, and no text is lost", async () => {
  const session = await openEditor(browser());
  const { tabA } = await twoTabsOneDocument(session, ' Written in tab B.');

  await editorLocator(tabA).getByText('Shared start. Written in tab B.').waitFor();
  await typeAtEnd(tabA, ' Written in tab A.');
  await saved(tabA);
  const dialog = tabA.getByRole('dialog');
  assert.equal(await dialog.count(), 0, 'no dialog');

  const documents = await serverDocuments(session);
  assert.equal(documents.length, 1, 'one document, no copy');
  assert.match(documents[0]!.text, /Shared start\. Written in tab B\. Written in tab A\./);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('the same words typed in another tab are there once, without asking', async () => {
  const session = await openEditor(browser());
  const { tabA } = await twoTabsOneDocument(session, ' The same ending.');

  // Tab A shows tab B's words as they are typed: it has nothing to write again.
  await editorLocator(tabA).getByText('Shared start. The same ending.').waitFor();
  await saved(tabA);
  const dialog = tabA.getByRole('dialog');
  assert.equal(await dialog.count(), 0, 'no dialog');
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

// Drafts offered back with a notice are replaced by the shared document's copy on this device,
// which merges without asking.
test('edits that never reached the server are kept after the tab is closed and saved when it opens again', async () => {
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
  await editorLocator(again).getByText('Saved part. Unsaved part.').waitFor();
  await saved(again);
  const texts = (await serverDocuments(session)).map((doc) => doc.text).join('\n');
  assert.match(texts, /Saved part\. Unsaved part\./);
  await session.close();
});

test('a long document saves from a worker, also once the connection is back', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  // ~220 KB of Markdown: its saves are large enough to be sent off the main thread, and its
  // parse long enough that the import shows its progress at once, before the parse blocks.
  const sections = Array.from(
    { length: 600 },
    (_, i) =>
      `## Section ${i + 1}\n\nSome *prose* for section ${i + 1}, long enough to weigh: ${'word '.repeat(60)}`,
  );
  await page.evaluate(() => {
    const seen = new MutationObserver(() => {
      if (document.body.textContent?.includes('Importing Markdown…')) {
        document.body.dataset.sawImportProgress = 'yes';
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await importMarkdown(page, `# A long document\n\n${sections.join('\n\n')}\n`, 'long.md');
  assert.equal(await page.evaluate(() => document.body.dataset.sawImportProgress), 'yes');
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
  assert.match(stored.text, /Section 600/);
  assert.match(stored.text, /word Written offline at the very end\."/);
  await session.close();
});

test('New document opens at once for typing; its title and text reach the server once it is created; a double click makes one', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await saved(page);
  const before = (await serverDocuments(session)).length;

  // The create is held back: the page types into the document before the server has it.
  let releaseCreate: () => void = () => undefined;
  const created = new Promise<void>((resolve) => (releaseCreate = resolve));
  const creates = /\/api\/documents(\?.*)?$/;
  await page.route(creates, async (route) => {
    if (route.request().method() === 'POST') await created;
    await route.continue();
  });
  await page.getByRole('button', { name: 'New document' }).first().dblclick();
  await page.waitForURL((url) => url.pathname.startsWith('/d/'));
  await page.getByLabel('Document title').fill('Made before the server knew');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Typed at once.');
  assert.equal((await serverDocuments(session)).length, before, 'not on the server yet');
  releaseCreate();
  await saved(page);
  await page.unroute(creates);

  // One document from the double click, with what was typed before it existed on the server.
  const documents = await serverDocuments(session);
  assert.equal(documents.length, before + 1);
  const made = documents.find((document) => document.title === 'Made before the server knew');
  assert.ok(made, `the title was saved: ${documents.map((document) => document.title).join(', ')}`);
  assert.match(made.text, /Typed at once\./);

  // Offline, a new document is refused with the reason, not made where only this page holds it.
  await context.setOffline(true);
  const url = page.url();
  await page.getByRole('button', { name: 'New document' }).first().click();
  await page.getByText("Couldn't create a document while offline.", { exact: false }).waitFor();
  assert.equal(page.url(), url);
  await context.setOffline(false);
  assert.deepEqual(session.errors, []);
  await session.close();
});
