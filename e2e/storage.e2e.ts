import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness.ts';
import { dangerousDom, editorLocator, openEditor, scriptCalls } from './editorPage.ts';

const browser = useBrowser();

/** The id of the document open in `page`. */
const documentIdOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

/**
 * Writes a draft of the open document straight into the app's IndexedDB, as a tampered copy or
 * one left by an older version of the app would be. Based on version 1, the one a new document has.
 */
async function storeDraft(page: Page, title: string, json: string) {
  await page.evaluate(
    ([id, t, j]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('inkwell');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('drafts', 'readwrite');
          const draft = {
            documentId: id,
            baseVersion: 1,
            title: t,
            json: j,
            change: 1,
            savedAt: Date.now(),
          };
          tx.objectStore('drafts').put(draft, id);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [documentIdOf(page), title, json] as const,
  );
}

/** The records kept aside because they could not be opened. */
async function keptAside(page: Page): Promise<unknown[]> {
  return page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('inkwell');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('keptAside').objectStore('keptAside').getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result);
          };
        };
      }),
  );
}

test('a stored document with dangerous links, images and HTML opens cleaned', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const doc = {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          {
            type: 'text',
            text: 'kept text',
            marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
          },
          { type: 'inlineImage', attrs: { src: 'javascript:alert(2)', alt: 'alt kept' } },
        ],
      },
      { type: 'htmlBlock', attrs: { html: '<img src=x onerror=alert(3)><b>bold</b>' } },
      { type: 'youtube', attrs: { src: 'https://evil.example/embed/x' } },
    ],
  };
  await storeDraft(page, 'Tampered', JSON.stringify(doc));
  await page.reload();
  const editor = editorLocator(page);
  await editor.getByText('kept text').waitFor();
  await editor.getByText('alt kept').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-html-pending]') === null);
  assert.equal(await editor.locator('a, iframe').count(), 0);
  assert.deepEqual(await dangerousDom(page), []);
  assert.deepEqual(await scriptCalls(page), []);
  await session.close();
});

test('a stored draft that is not a document opens the saved version, says so, and is kept aside', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await editorLocator(page).pressSequentially('The saved version.');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  const broken = '{"type":"doc","content":[{"type":"rocket"}';
  await storeDraft(page, 'Broken', broken);
  await page.reload();
  await page.getByText("couldn't be opened").first().waitFor();
  await editorLocator(page).getByText('The saved version.').waitFor();
  const kept = JSON.stringify(await keptAside(page));
  assert.ok(kept.includes('rocket'), `the broken draft is kept: ${kept.slice(0, 200)}`);
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

test('signing out asks before deleting text only this device holds, then leaves none behind', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  await editorLocator(page).pressSequentially('Saved to the account.');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  // Text the server never got: a draft that could not be opened, kept aside.
  await storeDraft(page, 'Broken', '{"type":"doc","content":[{"type":"rocket"}');
  await page.reload();
  await page.getByText("couldn't be opened").first().waitFor();
  assert.deepEqual(await deviceRecords(page), { drafts: 0, keptAside: 1 });

  await page.goto(new URL('/settings', page.url()).href);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out and lose unsaved changes?' });
  await dialog.getByText('One document has changes that only this device holds').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.deepEqual(await deviceRecords(page), { drafts: 0, keptAside: 1 });
  assert.equal(new URL(page.url()).pathname, '/settings', 'still signed in');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await dialog.getByRole('button', { name: 'Sign out and delete them' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/idp/session/end'));
  assert.deepEqual(await deviceRecords(page), { drafts: 0, keptAside: 0 });
  await session.close();
});

test('signing out in one tab stops another tab writing to this device and ends its page', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  await editorLocator(page).pressSequentially('Saved to the account.');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

  // A second tab on the same document whose saves never get through: its edits stay drafts.
  const other = await context.newPage();
  await other.route('**/api/documents/*', (route) =>
    route.request().method() === 'PATCH' ? undefined : route.continue(),
  );
  await other.goto(page.url());
  await editorLocator(other).getByText('Saved to the account.').waitFor();
  await editorLocator(other).press('ControlOrMeta+End');
  await editorLocator(other).pressSequentially(' Typed in the other tab.');
  await other.getByText('Saving…', { exact: true }).waitFor({ timeout: 15_000 });
  for (let tries = 0; (await deviceRecords(other)).drafts === 0; tries++) {
    assert.ok(tries < 50, 'the other tab wrote no draft');
    await other.waitForTimeout(100);
  }

  await page.goto(new URL('/settings', page.url()).href);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out and lose unsaved changes?' });
  await dialog.getByRole('button', { name: 'Sign out and delete them' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/idp/session/end'));

  // The other tab stops, forgets the device's drafts, and says the session has ended.
  await other.waitForURL((url) => url.pathname === '/auth/signed-out');
  await other.getByRole('heading', { name: 'You are signed out' }).waitFor();
  assert.deepEqual(await deviceRecords(other), { drafts: 0, keptAside: 0 });
  await session.close();
});
