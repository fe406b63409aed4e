import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { editorLocator, openEditor, sendFiles } from './editorPage.ts';
import { startServer, useBrowser, type RunningServer } from './harness.ts';

/*
 * The server's limit on one person's uploads a minute (FILE_UPLOADS_PER_MINUTE, set low here):
 * the upload past it is refused with 429, and the writer is told how long to wait.
 */

const browser = useBrowser();
let server: RunningServer | undefined;
let dataDir = '';

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-upload-limits-'));
  server = await startServer({
    env: { DATA_DIR: dataDir, FILE_UPLOADS_PER_MINUTE: '2', IDP_SIGNUPS_PER_HOUR: '10000' },
    label: 'server two uploads a minute',
  });
});

after(async () => {
  await server?.stop().catch(() => server?.kill());
  await rm(dataDir, { recursive: true, force: true });
});

test('an upload past the limit of a minute is refused with a toast naming the wait', async () => {
  const session = await openEditor(browser(), server!.url);
  const { page } = session;
  try {
    await sendFiles(page, 'paste', [30, 40, 50]);
    await page
      .locator('.ink-toast')
      .filter({ hasText: /Too many uploads: at most 2 a minute\. Try again in \d+ seconds?\./ })
      .waitFor();
    await editorLocator(page).locator('img[src^="/files/"]').nth(1).waitFor();
    assert.equal(await editorLocator(page).locator('img[src^="/files/"]').count(), 2);
    assert.equal(await editorLocator(page).locator('.ink-upload').count(), 0);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});
