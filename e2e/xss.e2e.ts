import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import {
  dangerousDom,
  editorLocator,
  htmlRendered,
  importMarkdown,
  openEditor,
  paste,
  runMenuItem,
  scriptCalls,
  type EditorSession,
} from './editorPage.ts';
import { dangerousMarkdown } from './exportCheck.ts';
import { XSS_CASES } from './hostileContent.ts';

const cases = XSS_CASES;

let browser: Browser;
let session: EditorSession;

before(async () => {
  browser = await launchBrowser();
  session = await openEditor(browser);
});

after(async () => {
  await session?.close();
  await browser?.close();
});

/** Lets the raw-HTML node views render, then gives any injected handler a moment to fire. */
async function settle() {
  await htmlRendered(session.page);
  await session.page.waitForTimeout(60);
}

async function copiedMarkdown(): Promise<string> {
  await runMenuItem(session.page, 'Copy as Markdown');
  return session.page.evaluate(() => navigator.clipboard.readText());
}

test(`the ${cases.length} DOMPurify payloads, imported as Markdown, run no script and leave nothing dangerous`, async () => {
  assert.ok(cases.length >= 200);
  const failures: string[] = [];
  for (const [index, { title, payload }] of cases.entries()) {
    // The marker comes first: an unterminated payload could swallow anything after it.
    const marker = `payload-${index}`;
    await importMarkdown(session.page, `${marker}\n\n${payload}`, 'payload.md');
    await editorLocator(session.page).getByText(marker, { exact: true }).waitFor();
    await settle();
    const dom = await dangerousDom(session.page);
    if (dom.length) failures.push(`${title} (import, editor DOM): ${dom.join(' ')}`);
    const exported = await copiedMarkdown();
    const inExport = dangerousMarkdown(exported);
    if (inExport.length) failures.push(`${title} (import, export): ${inExport.join(' ')}`);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await scriptCalls(session.page), []);
});

test(`the ${cases.length} DOMPurify payloads, pasted as HTML, run no script and leave nothing dangerous`, async () => {
  const failures: string[] = [];
  const page = session.page;
  for (const { title, payload } of cases) {
    // Pasted one after another at the end, so the final export holds every payload.
    await editorLocator(page).click();
    await page.keyboard.press('ControlOrMeta+End');
    await paste(page, { 'text/html': payload, 'text/plain': payload });
    await settle();
    const dom = await dangerousDom(page);
    if (dom.length) {
      failures.push(`${title} (paste, editor DOM): ${dom.join(' ')}`);
      break;
    }
  }
  const exported = await copiedMarkdown();
  assert.deepEqual(dangerousMarkdown(exported), []);
  assert.deepEqual(failures, []);
  assert.deepEqual(await scriptCalls(page), []);
  assert.deepEqual(
    session.errors.filter((e) => e.startsWith('dialog')),
    [],
  );
});
