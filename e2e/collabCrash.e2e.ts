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

  const sentence =
    ' Every key typed while the server dies and comes back again arrives in the end.';
  let typingDone = false;
  // A delay per key, so that the server dies with many keys still to come.
  const typing = page.keyboard.type(sentence, { delay: 40 }).then(() => {
    typingDone = true;
  });
  await page.waitForFunction(
    (length) => (document.querySelector('.ProseMirror')?.textContent ?? '').length >= length,
    start.length + 10,
  );
  await server!.kill();
  assert.equal(typingDone, false, 'the server died while keys were being typed');
  const shownAtKill = await textOf(page);
  assert.ok(shownAtKill.length < start.length + sentence.length, 'keys were still to come');
  await page
    .getByRole('status')
    .getByText(/^(Offline, kept on this device|Reconnecting…)$/)
    .waitFor();

  server = await startServer({ env, label: 'server restarted' });
  await typing;
  const everything = `${start}${sentence}`;
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

  let typingDone = false;
  const typing = page.keyboard
    .type(' one two three four five six seven eight nine ten'.repeat(8), { delay: 40 })
    .then(() => {
      typingDone = true;
    });
  await page.waitForFunction(
    () => (document.querySelector('.ProseMirror')?.textContent ?? '').length >= 20,
  );
  await server!.kill();
  server = await startServer({ env, label: 'server restarted' });
  const typedBeforeRestart = (await textOf(page)).length;
  assert.equal(typingDone, false, 'keys are still being typed once the server is back');

  // Characters typed after the server came back reach it while the writer goes on typing.
  const cookie = await cookieHeader(context, server.url);
  const outcome = await until(async () => {
    if (typingDone) return 'typing ended first';
    const stored = await restText(server!.url, cookie, id);
    return stored.length > typedBeforeRestart + 20 ? 'stored while typing' : null;
  }, 60_000);
  await typing;
  assert.equal(outcome, 'stored while typing');
  await saved(page, 60_000);
  await session.close();
});
