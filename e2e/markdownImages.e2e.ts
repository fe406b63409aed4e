import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { pngImage } from '../server/test/images.ts';
import { editorLocator, importMarkdown, openEditor } from './editorPage.ts';
import { signUp } from './auth.ts';
import { appUrl, collectPageErrors, useBrowser } from './harness.ts';

const browser = useBrowser();

test('a .md dropped on the editor with the images it links opens as a document showing them', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    const before = page.url();
    const files = [
      {
        name: 'Trip.md',
        type: 'text/markdown',
        bytes: [...Buffer.from('# Trip\n\n![shot](images/shot.png) and ![[map.png]]\n')],
      },
      { name: 'shot.png', type: 'image/png', bytes: [...(await pngImage(30, 10))] },
      { name: 'map.png', type: 'image/png', bytes: [...(await pngImage(50, 10))] },
    ];
    const transfer = await page.evaluateHandle((files) => {
      const data = new DataTransfer();
      for (const file of files) {
        data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      }
      return data;
    }, files);
    await editorLocator(page).dispatchEvent('drop', { dataTransfer: transfer });
    await page.waitForURL((url) => url.href !== before && url.pathname.startsWith('/d/'));
    await editorLocator(page).getByRole('heading', { name: 'Trip' }).waitFor();
    await page.waitForFunction(() => {
      const images = [
        ...document.querySelectorAll<HTMLImageElement>('.ProseMirror img[src^="/files/"]'),
      ];
      return images.length === 2 && images.every((image) => image.complete);
    });
    const shown = await editorLocator(page)
      .locator('img[src^="/files/"]')
      .evaluateAll((images) =>
        images.map((image) => [
          (image as HTMLImageElement).alt,
          (image as HTMLImageElement).naturalWidth,
        ]),
      );
    assert.deepEqual(shown, [
      ['shot', 30],
      ['map.png', 50],
    ]);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

/**
 * The requests `page` makes from now on for the build's chunk `name` (`/assets/<name>-<hash>.js`),
 * and the next answer to one.
 */
function watchChunk(page: Page, name: string) {
  const pattern = new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
  const isChunk = (url: string) => pattern.test(new URL(url).pathname);
  const requests: string[] = [];
  page.on('request', (request) => {
    if (isChunk(request.url())) requests.push(request.url());
  });
  return {
    requests,
    loaded: () => page.waitForResponse((response) => isChunk(response.url()) && response.ok()),
  };
}

test('files dragged over the page start loading the Markdown codec before they are dropped', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    // The codec's chunk (markdown-it and the parser), by the name the build gives it.
    const codec = watchChunk(page, 'markdown');
    await page.waitForTimeout(300);
    assert.deepEqual(codec.requests, [], 'an empty document does not load the codec');
    const loaded = codec.loaded();
    await editorLocator(page).evaluate((editor) => {
      const data = new DataTransfer();
      data.items.add(new File(['# Dragged\n'], 'Dragged.md', { type: 'text/markdown' }));
      editor.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true }));
    });
    await loaded;
    assert.equal(codec.requests.length, 1);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('the parser warms up while the file dialog is open, and the file picked then imports', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  try {
    const warmUp = watchChunk(page, 'parserWarmUp');
    await page.waitForTimeout(300);
    assert.deepEqual(warmUp.requests, [], 'a document that imports nothing does not warm up');
    const loaded = warmUp.loaded();
    await page.getByRole('button', { name: 'Document menu' }).click();
    const dialog = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Import Markdown…' }).click();
    const chooser = await dialog;
    await loaded;
    // The writer takes a moment to pick: the warm-up parses meanwhile.
    await page.waitForTimeout(500);
    await chooser.setFiles({
      name: 'Picked.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Picked\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n'),
    });
    const editor = editorLocator(page);
    await editor.getByRole('heading', { name: 'Picked' }).waitFor();
    assert.equal(await editor.locator('table td').count(), 2);
    assert.equal(warmUp.requests.length, 1);
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

test('an import from the home page fetches the code it shows the document with while it parses, not after', async () => {
  // A new writer on the home page: no document opened yet, so none of a live document's code.
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  try {
    await page.goto(appUrl());
    await signUp(page);
    await importMarkdown(page, '# Plain\n\nNo images here.\n', 'plain.md');
    await editorLocator(page).getByRole('heading', { name: 'Plain' }).waitFor();
    // The embedded images' upload code and the live document's (Yjs, the binding).
    const { fetched, parseStarted } = await page.evaluate(
      (chunks) => {
        const resources = performance.getEntriesByType('resource');
        const mark = performance.getEntriesByName('inkwell:import:start').at(-1);
        return {
          fetched: chunks.map((name): [string, number | null] => [
            name,
            resources.find((entry) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(entry.name))
              ?.startTime ?? null,
          ]),
          parseStarted: mark?.startTime ?? null,
        };
      },
      ['uploadInlineImages', 'shared-document'],
    );
    assert.ok(parseStarted !== null);
    for (const [chunk, at] of fetched) {
      if (at === null) assert.fail(`${chunk} was never fetched`);
      assert.ok(
        at < parseStarted,
        `${chunk} fetched at ${at} ms, the parse started at ${parseStarted} ms`,
      );
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
