import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { saved } from './collabPage.ts';
import { editorLocator, importMarkdown, openEditor } from './editorPage.ts';
import { startServer, useBrowser, type RunningServer } from './harness.ts';

/*
 * An imported file the server refuses to create (larger than its DOCUMENT_MAX_BYTES, which a
 * deployment may set below the client's own import limit): the writer is told, is taken back to
 * where the import started, and this device keeps nothing that nothing would open again.
 */

const browser = useBrowser();
let server: RunningServer | undefined;
let dataDir = '';

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-import-refused-'));
  server = await startServer({
    env: { DATA_DIR: dataDir, DOCUMENT_MAX_BYTES: '30000', IDP_SIGNUPS_PER_HOUR: '10000' },
    label: 'server small documents',
  });
});

after(async () => {
  await server?.stop().catch(() => server?.kill());
  await rm(dataDir, { recursive: true, force: true });
});

/** The names of this device's copies of shared documents, and the kept-aside records. */
async function deviceState(page: Page): Promise<{ copies: string[]; keptAside: number }> {
  return page.evaluate(async () => {
    const copies = (await indexedDB.databases())
      .map((database) => database.name ?? '')
      .filter((name) => name.startsWith('inkwell-live:'));
    const keptAside = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('inkwell');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('keptAside')) {
          db.close();
          resolve(0);
          return;
        }
        const count = db.transaction('keptAside').objectStore('keptAside').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
    return { copies, keptAside };
  });
}

test('an import the server refuses as too large says so, goes back, and its device copy is kept aside, not left behind', async () => {
  const session = await openEditor(browser(), server!.url);
  const { page } = session;
  await editorLocator(page).pressSequentially('Where the import started.');
  await saved(page);
  const startedAt = page.url();
  const before = await deviceState(page);
  assert.equal(before.copies.length, 1);

  // ~60 KB of Markdown: within the import's own limit, over the server's 30 KB of JSON.
  const sections = Array.from(
    { length: 150 },
    (_, i) => `## Part ${i + 1}\n\n${'Words of the refused file. '.repeat(12)}`,
  );
  await importMarkdown(page, `# Refused\n\n${sections.join('\n\n')}\n`, 'refused.md', {
    rejected: true,
  });
  await page.locator('.ink-toast').filter({ hasText: "Couldn't import “refused.md”" }).waitFor();
  await page.waitForURL(startedAt);
  await editorLocator(page).getByText('Where the import started.').waitFor();

  // The refused document's device copy is moved to the kept-aside store (counted at sign-out),
  // and its own database deleted: only the first document's copy remains.
  let after = await deviceState(page);
  for (let waited = 0; after.keptAside === 0 && waited < 10_000; waited += 200) {
    await page.waitForTimeout(200);
    after = await deviceState(page);
  }
  assert.equal(after.keptAside, 1);
  assert.deepEqual(after.copies, before.copies);
  assert.deepEqual(session.errors, []);
  await session.close();
});
