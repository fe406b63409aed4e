import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { dangerousDom, editorLocator, openEditor, scriptCalls } from './editorPage.ts';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Writes a stored document straight into the app's IndexedDB, as a tampered or old copy would be. */
async function storeRaw(page: Page, title: string, json: string) {
  await page.evaluate(
    ([t, j]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('inkwell', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('documents');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('documents', 'readwrite');
          tx.objectStore('documents').put({ title: t, json: j, updatedAt: Date.now() }, 'local');
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [title, json] as const,
  );
}

/** Every key under which a document is stored. */
async function storedKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('inkwell', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('documents')
            .objectStore('documents')
            .getAllKeys();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result.map(String));
          };
        };
      }),
  );
}

test('a stored document with dangerous links, images and HTML opens cleaned', async () => {
  const session = await openEditor(browser);
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
  await storeRaw(page, 'Tampered', JSON.stringify(doc));
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

test('a stored copy that is not a document opens an empty editor, says so, and is kept aside', async () => {
  const session = await openEditor(browser);
  const { page } = session;
  await storeRaw(page, 'Broken', '{"type":"doc","content":[{"type":"rocket"}');
  await page.reload();
  await page.getByRole('alert').filter({ hasText: "couldn't be opened" }).waitFor();
  assert.equal(await editorLocator(page).textContent(), '');
  const keys = await storedKeys(page);
  assert.ok(
    keys.some((key) => key.startsWith('unreadable-')),
    `the broken copy is kept: ${keys.join(', ')}`,
  );
  await session.close();
});
