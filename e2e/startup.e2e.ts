import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness.ts';
import {
  editorLocator,
  htmlRendered,
  openEditor,
  paste,
  scriptCalls,
  type EditorSession,
} from './editorPage.ts';

/** A plugin key name in prosemirror-tables' code, kept by minification. */
const TABLES_MARKER = 'selectingCells';
// What the editor route leaves for later: the Markdown codec, zod, and both HTML sanitisers load
// on first need (import, export, paste, a save, raw HTML), not with the page; table editing with
// the document's first table; linkifyjs never. Chunk names change with the build, so the
// libraries are recognised by strings their code carries.
const LATER = [
  { name: 'markdown-it (the codec)', marker: 'markdown-it' },
  { name: 'zod', marker: 'ZodError' },
  { name: 'DOMPurify', marker: 'DOMPurify' },
  { name: 'prosemirror-tables', marker: TABLES_MARKER },
  { name: 'linkifyjs', marker: 'FULLWIDTHLEFTPAREN' },
];
/** The HTML sanitiser (htmlparser2 and entity tables) has no telling string: its chunk's name. */
const SANITIZER_CHUNK = /\/sanitize-[^/]*\.js$/;

const browser = useBrowser();
let session: EditorSession;

/**
 * Waits for "Saved": the server has stored every edit (live collaboration acknowledges an update
 * once it is on disk). Called after typing, which sets "Saving…" in the same task as the key.
 */
const savedState = (page: Page) =>
  page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

/** Writes a line into the open document and waits for its save. */
async function writeAndSave(page: Page, text: string): Promise<void> {
  await editorLocator(page).click();
  await page.keyboard.type(text);
  await savedState(page);
}

/** Opens `url` in a new tab of the session with the cache off; returns the scripts it fetched. */
async function openCold(url: string): Promise<{ page: Page; scripts: Map<string, string> }> {
  const page = await session.context.newPage();
  const cdp = await session.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies: Promise<[string, string]>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const path = new URL(response.url()).pathname;
    // A script that arrives later (a chunk the test's clicks load) may still be reading when the
    // page closes; its body is then not wanted, and the failed read must not go unhandled.
    bodies.push(response.text().then((text): [string, string] => [path, text]));
    bodies.at(-1)?.catch(() => undefined);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await editorLocator(page).waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  return { page, scripts: new Map(await Promise.all(bodies)) };
}

test('an open document loads without the codec, zod or the HTML sanitisers', async () => {
  session = await openEditor(browser());
  await writeAndSave(session.page, 'Words written before the page is opened again.');
  const { page, scripts } = await openCold(session.page.url());
  await editorLocator(page).getByText('Words written before').waitFor();
  assert.ok(scripts.size > 0, 'no script was seen');
  const loaded = LATER.filter(({ marker }) =>
    [...scripts.values()].some((s) => s.includes(marker)),
  );
  assert.deepEqual(
    loaded.map(({ name }) => name),
    [],
  );
  assert.deepEqual(
    [...scripts.keys()].filter((path) => SANITIZER_CHUNK.test(path)),
    [],
  );
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('raw HTML pasted before the sanitiser has loaded is kept, sanitised', async () => {
  session = await openEditor(browser());
  await writeAndSave(session.page, 'Above the block.');
  const { page } = await openCold(session.page.url());
  const editor = editorLocator(page);
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  // What copying a raw-HTML block out of Inkwell puts on the clipboard.
  const raw =
    '<details><summary>More</summary>Hidden text<img src="x" onerror="alert(1)"></details>';
  const attribute = raw.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  await paste(page, {
    'text/html': `<div data-html-block="" data-html="${attribute}"></div>`,
    'text/plain': 'More',
  });
  await editor.locator('.ink-html-block summary', { hasText: 'More' }).waitFor();
  await htmlRendered(page);
  assert.equal(await editor.locator('[onerror]').count(), 0);
  assert.deepEqual(await scriptCalls(page), []);
  await session.close();
});

test('a document with a table opened cold loads table editing: Tab goes to the next cell', async () => {
  session = await openEditor(browser());
  await editorLocator(session.page).click();
  await paste(session.page, {
    'text/html':
      '<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>40</td></tr></table>',
    'text/plain': 'Name Age Ann 40',
  });
  await editorLocator(session.page).locator('table th', { hasText: 'Age' }).waitFor();
  await savedState(session.page);
  const { page, scripts } = await openCold(session.page.url());
  const editor = editorLocator(page);
  await editor.locator('table th', { hasText: /^Name$/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Second');
  await editor.locator('table th:nth-child(2)', { hasText: 'Second' }).waitFor();
  assert.ok([...scripts.values()].some((script) => script.includes(TABLES_MARKER)));
  assert.deepEqual(session.errors, []);
  await session.close();
});
