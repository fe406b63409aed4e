import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startFakeAiProvider, type FakeAiProvider } from '../server/test/fakeAiProvider.ts';
import {
  dangerousDom,
  editorLocator,
  exportMarkdown,
  openEditor,
  scriptCalls,
} from './editorPage.ts';
import { launchBrowser, screenshot, startServer, type RunningServer } from './harness.ts';

// The AI provider is the one thing these tests cannot reach for real: a test double stands in.
let browser: Browser;
let fake: FakeAiProvider;
let server: RunningServer;
let dataDir: string;

before(async () => {
  browser = await launchBrowser();
  fake = await startFakeAiProvider();
  dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-ai-'));
  server = await startServer({
    env: {
      DATA_DIR: dataDir,
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: 'fake-model',
      IDP_SIGNUPS_PER_HOUR: '10000',
    },
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Writes `text` as the only paragraph and returns its Markdown export. */
async function write(page: Page, text: string): Promise<string> {
  await editorLocator(page).click();
  await page.keyboard.type(text);
  return exportMarkdown(page);
}

/** Selects the paragraph's text (the export menu took the focus away). */
async function selectParagraph(page: Page) {
  await editorLocator(page).locator('p').first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.waitForFunction(() => (window.getSelection()?.toString().length ?? 0) > 0);
}

/** The document's DOM without the suggestion, to compare while the suggestion shows. */
async function documentHtml(page: Page): Promise<string> {
  return editorLocator(page).evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const widget of copy.querySelectorAll('.ink-ai-suggestion')) widget.remove();
    // The tint on the target is a decoration, not content.
    for (const tint of copy.querySelectorAll('.ink-ai-target'))
      tint.replaceWith(...tint.childNodes);
    for (const node of copy.querySelectorAll('[class]')) node.removeAttribute('class');
    return copy.innerHTML;
  });
}

async function runCommand(page: Page, label: string) {
  await page.keyboard.press('Control+j');
  await page.getByRole('menuitem', { name: label }).click();
}

const suggestion = (page: Page) => page.locator('[aria-label="AI suggestion"]');

test('Improve streams a suggestion; Accept changes the document in one step that Undo takes back exactly', async () => {
  const session = await openEditor(browser, server.url);
  const { page } = session;
  const before = await write(page, 'The quick fox jumps over the dog.');
  fake.setBehaviour(
    { kind: 'answer' },
    { reply: 'The **swift** fox leaps over the dog.', delayMs: 40, chunkChars: 3 },
  );
  await selectParagraph(page);
  const html = await documentHtml(page);
  await runCommand(page, 'Improve writing');
  const box = suggestion(page);
  await box.getByText('writing…').waitFor();
  // While it streams, and once it is done, the document itself is untouched.
  assert.equal(await documentHtml(page), html);
  const accept = box.getByRole('button', { name: 'Accept: Replace' });
  await accept.waitFor();
  await box.locator('strong', { hasText: 'swift' }).waitFor();
  assert.equal(await documentHtml(page), html);
  // The suggestion's own actions replace the formatting toolbar while it shows.
  await page.getByRole('toolbar', { name: 'Text formatting' }).waitFor({ state: 'hidden' });
  await screenshot(page, 'ai-suggestion');

  await accept.click();
  await box.waitFor({ state: 'detached' });
  assert.equal(await exportMarkdown(page), 'The **swift** fox leaps over the dog.\n');
  await editorLocator(page).press('Control+z');
  assert.equal(await exportMarkdown(page), before);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('Discard leaves the document byte for byte; Retry keeps the earlier answer to flip back to', async () => {
  const session = await openEditor(browser, server.url);
  const { page } = session;
  const before = await write(page, 'Text to be shortened, at some length.');
  await selectParagraph(page);

  fake.setBehaviour({ kind: 'answer' }, { reply: 'First answer.' });
  await runCommand(page, 'Make shorter');
  const box = suggestion(page);
  await box.getByText('First answer.').waitFor();
  fake.setBehaviour({ kind: 'answer' }, { reply: 'Second answer.' });
  await box.getByRole('button', { name: 'Retry' }).click();
  await box.getByText('Second answer.').waitFor();
  await box.getByText('2/2').waitFor();
  await box.getByRole('button', { name: 'Previous answer' }).click();
  await box.getByText('First answer.').waitFor();
  await box.getByText('1/2').waitFor();

  await box.getByRole('button', { name: 'Discard' }).click();
  await box.waitFor({ state: 'detached' });
  assert.equal(await exportMarkdown(page), before);
  await session.close();
});

test('a hostile answer from the model shows as harmless text, and Accept stores nothing dangerous', async () => {
  const session = await openEditor(browser, server.url);
  const { page } = session;
  await write(page, 'Plain words.');
  await selectParagraph(page);
  fake.setBehaviour(
    { kind: 'answer' },
    {
      reply:
        'Safe **start** [click](javascript:alert(1)) <img src=x onerror="alert(2)">\n\n' +
        '<script>alert(3)</script><iframe src="https://evil.example/"></iframe>\n\n' +
        '![pic](javascript:alert(4))',
    },
  );
  await runCommand(page, 'Improve writing');
  const box = suggestion(page);
  await box.getByRole('button', { name: 'Accept: Replace' }).waitFor();
  assert.deepEqual(await dangerousDom(page, '[aria-label="AI suggestion"]'), []);
  await box.getByRole('button', { name: 'Accept: Replace' }).click();
  await box.waitFor({ state: 'detached' });
  assert.deepEqual(await dangerousDom(page), []);
  const markdown = await exportMarkdown(page);
  assert.match(markdown, /Safe \*\*start\*\*/);
  // markdown-it refuses the javascript: links, so their source stays as escaped, inert text.
  assert.doesNotMatch(markdown, /(?<!\\)\]\(javascript:|onerror|<script|evil\.example/);
  assert.match(markdown, /\\\[click\\\]\(javascript:alert\(1\)\)/);
  assert.deepEqual(await scriptCalls(page), []);
  await session.close();
});

test('Stop closes the connection to the provider within a second', async () => {
  const session = await openEditor(browser, server.url);
  const { page } = session;
  await write(page, 'Something to improve.');
  await selectParagraph(page);
  fake.setBehaviour({ kind: 'endless' }, { delayMs: 50 });
  const arrived = fake.nextRequest();
  await runCommand(page, 'Improve writing');
  const request = await arrived;
  const box = suggestion(page);
  await box.getByRole('button', { name: 'Stop' }).click();
  const stoppedAt = performance.now();
  const closedAt = await fake.closedByClient(request, 5000);
  assert.ok(
    closedAt - stoppedAt < 1000,
    `closed ${Math.round(closedAt - stoppedAt)} ms after Stop`,
  );
  await session.close();
});

test('with no provider set, the assistant says how to turn it on', async () => {
  const session = await openEditor(browser);
  const { page } = session;
  await editorLocator(page).click();
  await page.keyboard.press('Control+j');
  await page.getByText(/AI is off on this server/).waitFor();
  await page
    .getByText(/AI_BASE_URL/)
    .first()
    .waitFor();
  await session.close();
});
