import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  caretAtEnd,
  cookieHeader,
  documentIdOf,
  restText,
  saved,
  waitForText,
} from './collabPage.ts';
import { editorLocator, importMarkdown, openEditor } from './editorPage.ts';
import { appUrl, useBrowser } from './harness.ts';

/*
 * An imported document is made in the tab (docs/ARCHITECTURE.md "Live collaboration"): it is
 * drawn once, in the editor on its shared document, editable before the server has it; its
 * create carries that document's state, and other tabs then open the same document. Every wait
 * is for a state of the page, never for a time.
 */

const browser = useBrowser();

const MARKER = 'Drawn once marker';

/**
 * Records in the page which editors (`.ProseMirror` roots) ever showed the marker heading, and
 * how many sockets to /api/collab were opened.
 */
async function watchEditors(page: Page): Promise<void> {
  await page.evaluate((marker) => {
    const probe = { editors: new Set<Element>(), sockets: 0 };
    Object.defineProperty(window, '__importProbe', { value: probe });
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (String(url).includes('/api/collab')) probe.sockets += 1;
      }
    };
    new MutationObserver(() => {
      for (const heading of document.querySelectorAll('.ProseMirror h2')) {
        const root = heading.closest('.ProseMirror');
        if (heading.textContent === marker && root) probe.editors.add(root);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, MARKER);
}

const probeOf = (page: Page) =>
  page.evaluate(() => {
    const probe = (
      window as unknown as { __importProbe: { editors: Set<Element>; sockets: number } }
    ).__importProbe;
    return { editors: probe.editors.size, sockets: probe.sockets };
  });

test('an imported document is drawn once, editable before the server has it, and other tabs open it', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  try {
    await watchEditors(page);
    // The create waits until the page has been checked: nothing can have synced before.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/documents',
      async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.continue();
      },
    );
    await importMarkdown(page, `## ${MARKER}\n\nImported text.\n`, 'once.md');
    await waitForText(page, `${MARKER}Imported text.`);
    // Editable (importMarkdown waited for it) while the create is still held, with no socket.
    assert.deepEqual(await probeOf(page), { editors: 1, sockets: 0 });
    await caretAtEnd(page);
    await page.keyboard.type(' Typed early.');
    release();
    await saved(page);
    const id = documentIdOf(page);
    assert.equal(
      await restText(appUrl(), await cookieHeader(context, appUrl()), id),
      `${MARKER}Imported text. Typed early.`,
    );
    // Still the one editor: the sync brought nothing to draw again.
    assert.equal((await probeOf(page)).editors, 1);

    const tabB = await context.newPage();
    await tabB.goto(page.url());
    await editorLocator(tabB).waitFor({ state: 'visible' });
    await waitForText(tabB, `${MARKER}Imported text. Typed early.`);
    await caretAtEnd(tabB);
    await tabB.keyboard.type(' From B.');
    await waitForText(page, `${MARKER}Imported text. Typed early. From B.`);
    await caretAtEnd(page);
    await page.keyboard.type(' From A.');
    await waitForText(tabB, `${MARKER}Imported text. Typed early. From B. From A.`);
    await Promise.all([saved(page), saved(tabB)]);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('a large import’s create carries its whole state, merged off the page by a worker', async () => {
  const session = await openEditor(browser());
  const { page, context } = session;
  try {
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    // About 250 KB: well over the size from which the state is merged by the worker.
    const sections = Array.from(
      { length: 400 },
      (_, i) => `## Part ${i + 1}\n\n${`Words of part ${i + 1} of the large file. `.repeat(14)}`,
    );
    await importMarkdown(page, `${sections.join('\n\n')}\n\n## The last part\n`, 'large.md');
    await editorLocator(page).getByRole('heading', { name: 'The last part' }).waitFor();
    await caretAtEnd(page);
    await page.keyboard.type(' typed');
    await saved(page);
    const shown = (await editorLocator(page).textContent()) ?? '';
    assert.ok(shown.endsWith('The last part typed'), shown.slice(-80));
    const stored = await restText(
      appUrl(),
      await cookieHeader(context, appUrl()),
      documentIdOf(page),
    );
    assert.equal(stored, shown);
    assert.ok(
      workers.some((url) => /\/assets\/mergeState\.worker-[\w-]+\.js$/.test(new URL(url).pathname)),
      `no merge worker among ${JSON.stringify(workers)}`,
    );
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});
