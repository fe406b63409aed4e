import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../server/test/freePort.ts';
import {
  caretAtEnd,
  cookieHeader,
  documentIdOf,
  keepTyping,
  restText,
  saved,
  textOf,
  waitForText,
} from './collabPage.ts';
import { editorLocator, openEditor } from './editorPage.ts';
import { startServer, useBrowser, type RunningServer } from './harness.ts';

/*
 * A server that dies without warning (SIGKILL: no shutdown, no last store) while someone types,
 * started again on the same port and data (docs/ARCHITECTURE.md "Live collaboration": an update
 * is acknowledged only once committed; the page keeps what is not, and sends it on reconnect).
 */

const browser = useBrowser();
let dataDir = '';
let env: Record<string, string> = {};
let server: RunningServer | undefined;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-crash-'));
  // A fixed port: the page reconnects to the address it was opened at.
  env = { DATA_DIR: dataDir, PORT: String(await freePort()), IDP_SIGNUPS_PER_HOUR: '10000' };
  server = await startServer({ env, label: 'server killed' });
});

after(async () => {
  await server?.stop().catch(() => server?.kill());
  await rm(dataDir, { recursive: true, force: true });
});

test('a server SIGKILLed while a sentence is typed and started again ends with every character', async () => {
  const session = await openEditor(browser(), server!.url);
  const { page, context } = session;
  const start = 'Before the crash.';
  await caretAtEnd(page);
  await page.keyboard.type(start);
  await saved(page);
  const id = documentIdOf(page);

  // The writer types until the server is back, and three words more.
  const typing = keepTyping(page, { delay: 40 });
  await page.waitForFunction(
    (length) => (document.querySelector('.ProseMirror')?.textContent ?? '').length >= length,
    start.length + 10,
  );
  await server!.kill();
  await page
    .getByRole('status')
    .getByText(/^(Offline, kept on this device|Reconnecting…)$/)
    .waitFor();

  server = await startServer({ env, label: 'server restarted' });
  typing.stop();
  const everything = `${start}${await typing.done}`;
  await waitForText(page, everything);
  // The page reconnects by itself (its back-off may wait several seconds) and sends the rest.
  await saved(page, 60_000);

  // A fresh window (no device copy: a new context has its own IndexedDB) gets it from the server.
  const fresh = await browser().newContext({ storageState: await context.storageState() });
  const freshPage = await fresh.newPage();
  await freshPage.goto(page.url());
  await editorLocator(freshPage).waitFor();
  await waitForText(freshPage, everything);
  const cookie = await cookieHeader(context, server.url);
  assert.equal(await restText(server.url, cookie, id), everything);
  // While the server was down, the browser logged each refused attempt to reconnect.
  const unexpected = session.errors.filter(
    (error) => !/WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED/.test(error),
  );
  assert.deepEqual(unexpected, []);
  await fresh.close();
  await session.close();
});

/** Polls `check` until it gives a value other than null (a state, not a time, is awaited). */
async function until<T>(check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`no answer in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('a writer who keeps typing while the killed server comes back is saved while still typing', async () => {
  const session = await openEditor(browser(), server!.url);
  const { page, context } = session;
  await caretAtEnd(page);
  await page.keyboard.type('Start.');
  await saved(page);
  const id = documentIdOf(page);

  const typing = keepTyping(page, { delay: 40 });
  await page.waitForFunction(
    () => (document.querySelector('.ProseMirror')?.textContent ?? '').length >= 20,
  );
  await server!.kill();
  server = await startServer({ env, label: 'server restarted' });
  const typedBeforeRestart = (await textOf(page)).length;

  // Characters typed after the server came back reach it while the writer goes on typing.
  const cookie = await cookieHeader(context, server.url);
  await until(async () => {
    const stored = await restText(server!.url, cookie, id);
    return stored.length > typedBeforeRestart + 20 ? stored : null;
  }, 60_000);
  // The writer was still typing (keepTyping goes on until stopped), and ends with everything stored.
  typing.stop();
  const everything = `Start.${await typing.done}`;
  await waitForText(page, everything);
  await saved(page, 60_000);
  assert.equal(await restText(server.url, cookie, id), everything);
  await session.close();
});
