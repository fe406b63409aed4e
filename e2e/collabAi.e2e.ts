import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeAiProvider, type FakeAiProvider } from '../server/test/fakeAiProvider.ts';
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
 * An AI suggestion accepted in one tab while another tab of the same person types elsewhere in
 * the document (docs/ARCHITECTURE.md "Live collaboration": an accepted suggestion is one change
 * and one undo step, fenced on both sides). The provider is the one thing faked: a test double
 * at its edge, as in ai.e2e.ts.
 */

const browser = useBrowser();
let fake: FakeAiProvider | undefined;
let server: RunningServer | undefined;
let dataDir = '';

before(async () => {
  fake = await startFakeAiProvider();
  dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-collab-ai-'));
  server = await startServer({
    env: {
      DATA_DIR: dataDir,
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: 'fake-model',
      IDP_SIGNUPS_PER_HOUR: '10000',
    },
    label: 'server ai',
  });
});

after(async () => {
  await server?.stop().catch(() => server?.kill());
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("accepting a suggestion while another tab types keeps both; undo takes back the suggestion whole and none of the other tab's words", async () => {
  const session = await openEditor(browser(), server!.url);
  const tabA = session.page;
  const original = 'The quick fox jumps over the dog.';
  await caretAtEnd(tabA);
  await tabA.keyboard.type(original);
  await tabA.keyboard.press('Enter');
  await tabA.keyboard.type('Notes:');
  await saved(tabA);
  const tabB = await session.context.newPage();
  await tabB.goto(tabA.url());
  await waitForText(tabB, `${original}Notes:`);
  await caretAtEnd(tabB);

  // Tab A asks for a rewrite of the first paragraph and waits for the whole answer.
  const improved = 'The swift fox leaps over the sleeping dog.';
  fake!.setBehaviour({ kind: 'answer' }, { reply: improved, delayMs: 20, chunkChars: 4 });
  await editorLocator(tabA).locator('p').first().click();
  await tabA.keyboard.press('End');
  await tabA.keyboard.press('Shift+Home');
  await tabA.waitForFunction(() => window.getSelection()?.toString().length === 33);
  await tabA.keyboard.press('Control+j');
  await tabA.getByRole('menuitem', { name: 'Improve writing' }).click();
  const box = tabA.locator('[aria-label="AI suggestion"]');
  const accept = box.getByRole('button', { name: 'Accept: Replace' });
  await accept.waitFor();
  await box.getByText(improved).waitFor();

  // Tab B types into the second paragraph until tab A has accepted, and three words more.
  const typingB = keepTyping(tabB);
  await tabA.waitForFunction(() =>
    document.querySelector('.ProseMirror')?.textContent?.includes('Notes: w1 w2'),
  );
  await accept.click();
  typingB.stop();
  await box.waitFor({ state: 'detached' });
  // Typing at once after the accept starts an undo step of its own.
  await tabA.keyboard.press('End');
  await tabA.keyboard.type(' Yes.');
  const fromB = await typingB.done;

  const accepted = `${improved} Yes.Notes:${fromB}`;
  await Promise.all([waitForText(tabA, accepted), waitForText(tabB, accepted)]);
  await Promise.all([saved(tabA), saved(tabB)]);
  const id = documentIdOf(tabA);
  const cookie = await cookieHeader(session.context, server!.url);
  assert.equal(await restText(server!.url, cookie, id), accepted);

  // Undo in tab A takes back its typing, then the suggestion, whole, and nothing of B's.
  await tabA.keyboard.press('Control+z');
  const beforeYes = `${improved}Notes:${fromB}`;
  await Promise.all([waitForText(tabA, beforeYes), waitForText(tabB, beforeYes)]);
  await tabA.keyboard.press('Control+z');
  const undone = `${original}Notes:${fromB}`;
  await Promise.all([waitForText(tabA, undone), waitForText(tabB, undone)]);
  await Promise.all([saved(tabA), saved(tabB)]);
  assert.equal(await restText(server!.url, cookie, id), undone);
  assert.equal(await textOf(tabB), undone);
  assert.deepEqual(session.errors, []);
  await session.close();
});
