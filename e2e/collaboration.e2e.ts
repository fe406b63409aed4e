import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import type { DocumentRecord } from '../common/api/documents.ts';
import {
  apiHeaders,
  caretAtEnd,
  plainText,
  type JsonNode,
  saved,
  textOf,
  waitForBlocks,
  waitForCharacters,
  waitForText,
} from './collabPage.ts';
import { editorLocator, openEditor, TOP_LEVEL, type EditorSession } from './editorPage.ts';
import { appUrl, useBrowser } from './harness.ts';

/*
 * Live collaboration from the browser (docs/ARCHITECTURE.md "Live collaboration"): two tabs, or
 * two windows of one account (separate contexts, so that one can go offline alone), edit one
 * shared document. Every wait is for a state of the page, never for a time.
 */

const browser = useBrowser();

/** The server's copy of the open document, as a fresh reader gets it. */
async function serverText(session: EditorSession, pageOrUrl: Page | string): Promise<string> {
  const url = typeof pageOrUrl === 'string' ? pageOrUrl : pageOrUrl.url();
  const id = new URL(url).pathname.split('/').pop()!;
  const res = await session.context.request.get(`${appUrl()}/api/documents/${id}`);
  const { document } = (await res.json()) as { document: DocumentRecord };
  return JSON.stringify(document.content);
}

/** The same account in a second window of its own (its own network switch). */
async function secondWindow(
  session: EditorSession,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({
    viewport: { width: 1280, height: 900 },
    storageState: await session.context.storageState(),
  });
  const page = await context.newPage();
  await page.goto(session.page.url());
  await editorLocator(page).waitFor();
  return { context, page };
}

/** Tab A (the session's page) and tab B of the same person, on a document reading `Shared line:`. */
async function twoTabs(session: EditorSession): Promise<[Page, Page]> {
  const tabA = session.page;
  await caretAtEnd(tabA);
  await tabA.keyboard.type('Shared line:');
  await saved(tabA);
  const tabB = await session.context.newPage();
  await tabB.goto(tabA.url());
  await editorLocator(tabB).getByText('Shared line:').waitFor();
  return [tabA, tabB];
}

test('two tabs typing into the same paragraph at once each keep their caret with their own text', async () => {
  const session = await openEditor(browser());
  const [tabA, tabB] = await twoTabs(session);
  await caretAtEnd(tabA);
  await caretAtEnd(tabB);
  const fromA = ' alpha bravo charlie delta';
  const fromB = ' one two three four five';
  // A delay per key keeps both typing over the same stretch of time, updates crossing.
  await Promise.all([
    tabA.keyboard.type(fromA, { delay: 20 }),
    tabB.keyboard.type(fromB, { delay: 20 }),
  ]);

  // What the other tab typed at my caret went beside it, never between my letters.
  const either = [[`Shared line:${fromA}${fromB}`], [`Shared line:${fromB}${fromA}`]];
  const [inA, inB] = await Promise.all([waitForBlocks(tabA, either), waitForBlocks(tabB, either)]);
  assert.deepEqual(inA, inB, 'both tabs show the same text');
  await Promise.all([saved(tabA), saved(tabB)]);

  // "Saved" means on the server: a reload (and the REST copy) has it all.
  await tabA.reload();
  await waitForBlocks(tabA, [inA]);
  const stored = (JSON.parse(await serverText(session, tabA)) as { content: JsonNode[] }).content;
  assert.deepEqual(stored.map(plainText), inA, 'the server stores what the tabs show');
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('two tabs writing sentences and new paragraphs at the same spot at once keep each whole', async () => {
  const session = await openEditor(browser());
  const [tabA, tabB] = await twoTabs(session);
  await caretAtEnd(tabA);
  await caretAtEnd(tabB);
  const [a1, a2] = [' Alpha bravo charlie.', 'Delta echo foxtrot.'];
  const [b1, b2] = [' One two three.', 'Four five six.'];
  await Promise.all([
    tabA.keyboard.type(`${a1}\n${a2}`, { delay: 20 }),
    tabB.keyboard.type(`${b1}\n${b2}`, { delay: 20 }),
  ]);

  // Enter starts each new paragraph after what the other tab typed at the caret, not inside it.
  const either = [`Shared line:${a1}${b1}`, `Shared line:${b1}${a1}`].flatMap((first) => [
    [first, a2, b2],
    [first, b2, a2],
  ]);
  const [inA, inB] = await Promise.all([waitForBlocks(tabA, either), waitForBlocks(tabB, either)]);
  assert.deepEqual(inA, inB, 'both tabs show the same paragraphs');
  await Promise.all([saved(tabA), saved(tabB)]);
  const stored = (JSON.parse(await serverText(session, tabA)) as { content: JsonNode[] }).content;
  assert.deepEqual(stored.map(plainText), inA, 'the server stores what the tabs show');
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('edits made offline in one window and online in another are both kept once it reconnects', async () => {
  const session = await openEditor(browser());
  const pageA = session.page;
  await caretAtEnd(pageA);
  await pageA.keyboard.type('Start.');
  await saved(pageA);
  const other = await secondWindow(session);
  await editorLocator(other.page).getByText('Start.').waitFor();

  await session.context.setOffline(true);
  await caretAtEnd(pageA);
  await pageA.keyboard.type(' Typed in the tunnel.');
  await pageA.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  await caretAtEnd(other.page);
  await other.page.keyboard.type(' Typed at the desk.');
  await saved(other.page);

  await session.context.setOffline(false);
  await saved(pageA);
  const everything = 'Start. Typed in the tunnel. Typed at the desk.';
  const [inA, inB] = await Promise.all([
    waitForCharacters(pageA, everything),
    waitForCharacters(other.page, everything),
  ]);
  assert.equal(inA, inB);
  assert.match(inA, /Typed in the tunnel\./);
  assert.match(inA, /Typed at the desk\./);
  assert.deepEqual(session.errors, []);
  await other.context.close();
  await session.close();
});

test('edits made offline survive the tab closing and reach the server when it opens again', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Saved part.');
  await saved(page);
  const url = page.url();

  await context.setOffline(true);
  await caretAtEnd(page);
  await page.keyboard.type(' Unsaved part.');
  await page.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  // Closing without running beforeunload, as a crash would.
  await page.close({ runBeforeUnload: false });
  await context.setOffline(false);
  assert.doesNotMatch(await serverText(session, url), /Unsaved part/);

  const again = await context.newPage();
  await again.goto(url);
  await editorLocator(again).getByText('Saved part. Unsaved part.').waitFor({ timeout: 15_000 });
  await saved(again);
  assert.match(await serverText(session, again), /Saved part\. Unsaved part\./);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test("undo in one tab takes back only that tab's typing, never the other's", async () => {
  const session = await openEditor(browser());
  const tabA = session.page;
  // Tab A types into the empty paragraph, so its undo history holds the making of that
  // paragraph's text: the undo step that takes back " Mine." may reach back to it (Y.UndoManager
  // merges changes within 500 ms), and must still leave " Theirs." typed into that text.
  await caretAtEnd(tabA);
  await tabA.keyboard.type('Base.');
  await saved(tabA);
  const tabB = await session.context.newPage();
  await tabB.goto(tabA.url());
  await waitForText(tabB, 'Base.');

  await caretAtEnd(tabA);
  await tabA.keyboard.type(' Mine.');
  await waitForText(tabB, 'Base. Mine.');
  await caretAtEnd(tabB);
  await tabB.keyboard.type(' Theirs.');
  await waitForText(tabA, 'Base. Mine. Theirs.');

  await tabA.keyboard.press('Control+z');
  // "Base." goes too when the same undo step holds it (typed within 500 ms of " Mine.").
  await tabA.waitForFunction(
    () => !document.querySelector('.ProseMirror')?.textContent?.includes('Mine.'),
    undefined,
    { timeout: 15_000 },
  );
  const undone = await textOf(tabA);
  assert.ok(
    ['Base. Theirs.', ' Theirs.'].includes(undone),
    `tab A shows ${JSON.stringify(undone)}`,
  );
  await waitForText(tabB, undone);
  await Promise.all([saved(tabA), saved(tabB)]);
  const stored = await serverText(session, tabA);
  assert.match(stored, /Theirs\./);
  assert.doesNotMatch(stored, /Mine\./);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a page with edits not yet on the server asks before it is left', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Written.');
  await saved(page);
  // Nothing unsaved: leaving asks nothing.
  assert.equal(
    await page.evaluate(() => dispatchEvent(new Event('beforeunload', { cancelable: true }))),
    true,
  );

  await context.setOffline(true);
  await caretAtEnd(page);
  await page.keyboard.type(' Not on the server yet.');
  await page.getByText('Offline, kept on this device').waitFor({ timeout: 15_000 });
  const notCancelled = await page.evaluate(() =>
    dispatchEvent(new Event('beforeunload', { cancelable: true })),
  );
  assert.equal(notCancelled, false, 'beforeunload is cancelled (the browser asks)');
  await context.setOffline(false);
  await saved(page);
  assert.deepEqual(session.errors, []);
  await session.close();
});

/** How many sockets `page` opens to the live-collaboration endpoint from now on. */
function countCollabSockets(page: Page): () => number {
  let count = 0;
  page.on('websocket', (socket) => {
    if (socket.url().endsWith('/api/collab')) count += 1;
  });
  return () => count;
}

test('a page whose session is signed out stops reconnecting, keeps the document read-only and its edits on this device, and offers to sign in', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Stored.');
  await saved(page);
  // Edits the server never acknowledges stay on this device only.
  let forwarding = true;
  await page.routeWebSocket(/\/api\/collab$/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if (forwarding) server.send(message);
    });
  });
  await page.reload();
  await editorLocator(page).getByText('Stored.').waitFor();
  await saved(page);
  forwarding = false;
  await caretAtEnd(page);
  await page.keyboard.type(' Only here.');
  await page.getByRole('status').getByText('Saving…', { exact: true }).waitFor();
  const sockets = countCollabSockets(page);
  const id = new URL(page.url()).pathname.split('/').pop()!;

  // Signed out elsewhere (not by a tab of this browser, which would end this page too).
  const out = await session.context.request.post(`${appUrl()}/api/session/logout`, {
    headers: apiHeaders(),
  });
  assert.equal(out.status(), 200);
  // The toast's message (an alert) and its button beside it.
  const toast = page.locator('.ink-toast').filter({ hasText: 'You were signed out' });
  await toast
    .getByRole('alert')
    .getByText('sign in again to keep editing; your unsaved edits are kept on this device')
    .waitFor({ timeout: 15_000 });
  const shown = page.locator('.ProseMirror[contenteditable=false]');
  await shown.getByText('Stored. Only here.').waitFor();
  // Back online must not reopen it either. No state shows a reconnect that does not happen, so
  // this waits past the provider's retry delay (1 s) and checks none came.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForTimeout(3000);
  assert.equal(sockets(), 0, 'no reconnect after 4401');
  assert.equal(await editorLocator(page).count(), 0, 'the editor is read-only');
  // The title too: it could not be saved either.
  assert.equal(await page.getByLabel('Document title').getAttribute('readonly'), '');
  const copies = await page.evaluate(
    async () =>
      (await indexedDB.databases()).filter((db) => db.name?.startsWith('inkwell-live:')).length,
  );
  assert.equal(copies, 1, "this device's copy is kept");

  // The app's sign-in route, coming back to this document.
  const signIn = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return url.pathname === '/auth/login' && url.searchParams.get('returnTo') === `/d/${id}`;
  });
  await toast.getByRole('button', { name: 'Sign in' }).click();
  await signIn;
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a document trashed while open turns read-only with a message, without reconnecting, and leaves no device copy', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Soon in the trash.');
  await saved(page);
  const sockets = countCollabSockets(page);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  /** This device's copies of the document (y-indexeddb databases, named by person and id). */
  const copies = () =>
    page.evaluate(
      async (documentId) =>
        (await indexedDB.databases()).filter(
          (db) => db.name?.startsWith('inkwell-live:') && db.name.endsWith(documentId),
        ).length,
      id,
    );
  assert.equal(await copies(), 1);

  // Trashed from elsewhere (another window, a script): the server withdraws access.
  const trashed = await session.context.request.delete(`${appUrl()}/api/documents/${id}`, {
    headers: apiHeaders(),
  });
  assert.ok(trashed.ok(), `trash answered ${trashed.status()}`);
  await page
    .getByRole('alert')
    .getByText('This document was moved to the trash or you no longer have access')
    .waitFor({ timeout: 15_000 });
  await page
    .locator('.ProseMirror[contenteditable=false]')
    .getByText('Soon in the trash.')
    .waitFor();
  await page.getByRole('status').getByText('this document is no longer open to you').waitFor();
  assert.equal(await page.getByLabel('Document title').getAttribute('readonly'), '');
  // Nobody keeps a device copy of a document no longer open to them.
  for (let wait = 0; (await copies()) > 0 && wait < 50; wait++) await page.waitForTimeout(100);
  assert.equal(await copies(), 0, "this device's copy is deleted");
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  // As above: waiting past the retry delay is the only way to see a reconnect that is not made.
  await page.waitForTimeout(3000);
  assert.equal(sockets(), 0, 'no reconnect after access-revoked');
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a document whose live connection cannot be made says it is read-only until connected', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Written online.');
  await saved(page);
  // Every socket to the live endpoint fails, as behind a proxy that drops WebSockets.
  await page.routeWebSocket(/\/api\/collab$/, (socket) =>
    socket.close({ code: 1011, reason: 'unreachable' }),
  );
  await page.reload();
  await page
    .locator('.ProseMirror[contenteditable=false]')
    .getByText('Written online.')
    .waitFor({ timeout: 15_000 });
  await page
    .getByRole('status')
    .getByText('Offline: read-only until connected', { exact: true })
    .waitFor({ timeout: 15_000 });
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('two tabs opening an empty document at once leave exactly one paragraph', async () => {
  const session = await openEditor(browser());
  const made = await session.context.request.post(`${appUrl()}/api/documents`, {
    headers: apiHeaders(),
    data: { title: 'Opened twice' },
  });
  assert.ok(made.ok(), `create answered ${made.status()}`);
  const { document } = (await made.json()) as { document: DocumentRecord };
  const url = `${appUrl()}/d/${document.id}`;
  const tabA = session.page;
  const tabB = await session.context.newPage();
  await Promise.all([tabA.goto(url), tabB.goto(url)]);
  await Promise.all([saved(tabA), saved(tabB)]);
  await editorLocator(tabA).click();
  await tabA.keyboard.type('Only paragraph.');
  await Promise.all([waitForText(tabB, 'Only paragraph.'), saved(tabA)]);
  for (const tab of [tabA, tabB]) {
    assert.equal(await editorLocator(tab).locator(TOP_LEVEL).count(), 1, 'one block in each tab');
  }
  const stored = (JSON.parse(await serverText(session, tabA)) as { content: JsonNode[] }).content;
  assert.equal(stored.length, 1, 'one block on the server');
  assert.deepEqual(session.errors, []);
  await session.close();
});
