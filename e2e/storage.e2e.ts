import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import * as Y from 'yjs';
import { appUrl, useBrowser } from './harness.ts';
import { dangerousDom, editorLocator, openEditor, scriptCalls } from './editorPage.ts';

const browser = useBrowser();

/** The id of the document open in `page`. */
const documentIdOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

/** The IndexedDB databases holding this device's copies of shared documents. */
async function localCopies(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases())
      .map((database) => database.name ?? '')
      .filter((name) => name.startsWith('inkwell-live:')),
  );
}

/**
 * Adds a Yjs update to this device's copy of the open document (y-indexeddb's `updates` store),
 * as a tampered copy would hold it.
 */
async function storeLocalUpdate(page: Page, update: Uint8Array) {
  const res = await page.context().request.get(`${appUrl()}/api/me`);
  const { user } = (await res.json()) as { user: { id: string } };
  await page.evaluate(
    ([name, bytes]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('updates', 'readwrite');
          tx.objectStore('updates').add(new Uint8Array(bytes));
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [`inkwell-live:${user.id}:${documentIdOf(page)}`, [...update]] as const,
  );
}

// Before live collaboration this test tampered with a draft; this device's copy of a document is
// now its Yjs state in IndexedDB, and that is what a tampered copy would change. The server
// refuses the tampered update (the link rule) with 1008; the page sets the copy aside (kept in
// the kept-aside store, offered as Markdown) and continues from the server's copy, instead of
// sending it again at every reconnect.
test('a tampered copy on this device that the server refuses is set aside, and the document continues from the server', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await editorLocator(page).pressSequentially('Server text.');
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  const doc = new Y.Doc();
  const paragraph = new Y.XmlElement('paragraph');
  const text = new Y.XmlText();
  text.insert(0, 'kept text', { link: { href: 'javascript:alert(1)' } });
  const image = new Y.XmlElement('inlineImage');
  image.setAttribute('src', 'javascript:alert(2)');
  image.setAttribute('alt', 'alt kept');
  paragraph.insert(0, [text, image]);
  const html = new Y.XmlElement('htmlBlock');
  html.setAttribute('html', '<img src=x onerror=alert(3)><b>bold</b>');
  const youtube = new Y.XmlElement('youtube');
  youtube.setAttribute('src', 'https://evil.example/embed/x');
  doc.getXmlFragment('default').insert(0, [paragraph, html, youtube]);
  await storeLocalUpdate(page, Y.encodeStateAsUpdate(doc));
  await page.reload();

  const notice = page
    .locator('.ink-toast')
    .filter({ hasText: "The server refused this device's copy of the document" });
  await notice.waitFor({ timeout: 15_000 });
  const editor = editorLocator(page);
  await editor.getByText('Server text.').waitFor();
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('[data-html-pending]') === null);
  assert.equal(await editor.getByText('kept text').count(), 0, 'the refused copy is not shown');
  assert.equal(await editor.locator('a, iframe').count(), 0);
  assert.deepEqual(await dangerousDom(page), []);
  assert.deepEqual(await scriptCalls(page), []);
  // Nothing is thrown away: the copy is kept aside (and counted at sign-out) and downloadable.
  assert.equal((await deviceRecords(page)).keptAside, 1);
  const download = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Download it as Markdown' }).click();
  const file = await (await download).path();
  assert.match(await readFile(file, 'utf8'), /kept text/);

  // The device copy is the server's now: editing and reloading save, with no second refusal.
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially(' Typed after.');
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  await page.reload();
  await editorLocator(page).getByText('Server text. Typed after.').waitFor();
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  assert.equal(await page.getByText("The server refused this device's copy").count(), 0);
  assert.equal((await deviceRecords(page)).keptAside, 1);
  // Until the server refuses it, the page shows the device copy: the Content Security Policy
  // blocks its javascript: image and inline handler (logged), and nothing else may go wrong.
  const blockedByCsp = (error: string) => error.includes('Content Security Policy');
  assert.deepEqual(
    session.errors.filter((error) => !blockedByCsp(error)),
    [],
  );
  await session.close();
});

/** How many records the drafts and kept-aside stores hold. */
async function deviceRecords(page: Page): Promise<{ drafts: number; keptAside: number }> {
  return page.evaluate(
    () =>
      new Promise<{ drafts: number; keptAside: number }>((resolve, reject) => {
        const open = indexedDB.open('inkwell');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['drafts', 'keptAside']);
          const drafts = tx.objectStore('drafts').count();
          const kept = tx.objectStore('keptAside').count();
          tx.oncomplete = () => {
            open.result.close();
            resolve({ drafts: drafts.result, keptAside: kept.result });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/**
 * Lets `page`'s live connection sync, then drops what it sends: its edits stay on this device
 * only, as on a connection that stalls.
 */
async function stallUpdates(page: Page): Promise<() => void> {
  let forwarding = true;
  await page.routeWebSocket(/\/api\/collab$/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if (forwarding) server.send(message);
    });
  });
  return () => {
    forwarding = false;
  };
}

// Before live collaboration the text only this device held was a draft; it is now an open
// document whose edits the server has not stored.
test('signing out asks before deleting text only this device holds, then leaves none behind', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const stall = await stallUpdates(page);
  await page.reload();
  await editorLocator(page).pressSequentially('Saved to the account.');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  stall();
  await editorLocator(page).pressSequentially(' Only on this device.');
  await page.getByText('Saving…', { exact: true }).waitFor();
  assert.equal((await localCopies(page)).length, 1);

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out and lose unsaved changes?' });
  await dialog.getByText('One document has changes that only this device holds').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await localCopies(page)).length, 1);
  assert.equal(new URL(page.url()).pathname, '/settings', 'still signed in');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await dialog.getByRole('button', { name: 'Sign out and delete them' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/idp/session/end'));
  assert.deepEqual(await localCopies(page), []);
  assert.deepEqual(await deviceRecords(page), { drafts: 0, keptAside: 0 });
  await session.close();
});

test('signing out in one tab stops another tab writing to this device and ends its page', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await editorLocator(page).pressSequentially('Saved to the account.');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

  // A second tab on the same document whose edits never get through: they stay on this device.
  const other = await context.newPage();
  const stall = await stallUpdates(other);
  await other.goto(page.url());
  await editorLocator(other).getByText('Saved to the account.').waitFor();
  stall();
  await editorLocator(other).press('ControlOrMeta+End');
  await editorLocator(other).pressSequentially(' Typed in the other tab.');
  await other.getByText('Saving…', { exact: true }).waitFor({ timeout: 15_000 });
  assert.equal((await localCopies(other)).length, 1);

  await page.goto(new URL('/settings', page.url()).href);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/idp/session/end'));

  // The other tab stops, forgets this device's copies, and says the session has ended.
  await other.waitForURL((url) => url.pathname === '/auth/signed-out');
  await other.getByRole('heading', { name: 'You are signed out' }).waitFor();
  assert.deepEqual(await localCopies(other), []);
  await session.close();
});
