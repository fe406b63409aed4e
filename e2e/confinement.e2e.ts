import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import {
  editorLocator,
  htmlRendered,
  importMarkdown,
  openEditor,
  paste,
  type EditorSession,
} from './editorPage.ts';

/** Styles a hostile file uses to draw outside its place in the document. */
const HOSTILE_STYLES = [
  'position: fixed; inset: 0; z-index: 99999; background-color: white',
  'position: absolute; left: -3000px; top: -3000px',
  'position: fixed; top: 0; left: 0; right: 0; height: 80px; z-index: 2147483647',
  'width: 5000px; height: 300px',
  'transform: translate(-5000px, -5000px)',
  'transform: scale(50)',
  'position: relative; z-index: 99999; top: -2000px',
  'margin-top: -2000px; margin-left: -2000px',
  'float: left; margin-left: -1000px',
  'position: sticky; top: 0; z-index: 99999',
];

/** A block of raw HTML and a line with inline HTML for each hostile style. */
function hostileMarkdown(): string {
  const blocks = HOSTILE_STYLES.map(
    (style, i) =>
      `<div style="${style}">\nSession expired, <a href="https://example.com/login">sign in again</a> (block ${i})\n</div>\n\n` +
      `Inline ${i}: <span style="${style}">fake prompt ${i}</span> and <img src="data:image/png;base64,iVBORw0KGgo=" width="10" style="${style}">\n`,
  );
  return `hostile-file\n\n${blocks.join('\n')}`;
}

/** The same styles as pasted HTML: on marks and attributes the editor keeps from a paste. */
function hostileHtml(): string {
  return HOSTILE_STYLES.map(
    (style, i) =>
      `<p><span style="color: red; ${style}">pasted colour ${i}</span> ` +
      `<mark data-color="yellow; ${style}">pasted mark ${i}</mark></p>` +
      `<p style="text-align: center; ${style}">pasted paragraph ${i}</p>`,
  ).join('');
}

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

/**
 * Elements that came from the file or the paste whose box reaches outside the editor's, and the
 * points at the window's corners and across its top bar where such an element is on top.
 */
async function escapes(page: Page): Promise<{ outside: string[]; onTop: string[] }> {
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  return editorLocator(page).evaluate((editor) => {
    const box = editor.getBoundingClientRect();
    const outside: string[] = [];
    const candidates = editor.querySelectorAll(
      '.ink-html-block *, .ink-html-inline, .ink-html-inline *, mark, span[style], p[style]',
    );
    for (const element of candidates) {
      const r = element.getBoundingClientRect();
      const inside =
        r.left >= box.left - 1 &&
        r.right <= box.right + 1 &&
        r.top >= box.top - 1 &&
        r.bottom <= box.bottom + 1;
      if (!inside) {
        const rect = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
        const text = element.textContent?.slice(0, 30) ?? '';
        outside.push(`${element.tagName.toLowerCase()} "${text}" at ${rect}`);
      }
    }
    const w = window.innerWidth;
    const h = window.innerHeight;
    const points: Array<[number, number]> = [
      [1, 1],
      [w - 2, 1],
      [1, h - 2],
      [w - 2, h - 2],
      [w / 4, 20],
      [w / 2, 20],
      [(3 * w) / 4, 20],
    ];
    const onTop: string[] = [];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (hit?.closest('.ink-html-block, .ink-html-inline, mark, span[style], p[style]')) {
        onTop.push(`${Math.round(x)},${Math.round(y)}: ${hit.textContent?.slice(0, 30) ?? ''}`);
      }
    }
    return { outside, onTop };
  });
}

test('raw HTML imported from a Markdown file stays inside the editor, whatever its styles', async () => {
  const { page } = session;
  await importMarkdown(page, hostileMarkdown(), 'hostile.md');
  await editorLocator(page).getByText('hostile-file', { exact: true }).waitFor();
  await htmlRendered(page);
  assert.ok(
    (await editorLocator(page).locator('.ink-html-block').count()) >= HOSTILE_STYLES.length,
  );
  for (const scroll of [0, 1500]) {
    await page.evaluate((y) => window.scrollTo(0, y), scroll);
    await page.waitForTimeout(50);
    assert.deepEqual(await escapes(page), { outside: [], onTop: [] }, `scrolled to ${scroll}`);
  }
});

test('HTML pasted with the same styles stays inside the editor', async () => {
  const { page } = session;
  await editorLocator(page).click();
  await page.keyboard.press('ControlOrMeta+End');
  await paste(page, { 'text/html': hostileHtml(), 'text/plain': 'pasted' });
  await editorLocator(page)
    .getByText(`pasted mark ${HOSTILE_STYLES.length - 1}`)
    .waitFor();
  await htmlRendered(page);
  assert.deepEqual(await escapes(page), { outside: [], onTop: [] });
});

test('a style that got past the sanitisers still cannot draw over the app', async () => {
  const { page } = session;
  await page.evaluate(() => window.scrollTo(0, 0));
  // Stands for a sanitiser bug: the style is set directly in the rendered raw HTML.
  const placed = await editorLocator(page).evaluate((editor) => {
    const content = editor.querySelector('.ink-html-block__content');
    if (!content) return false;
    const cover = document.createElement('div');
    cover.className = 'injected-cover';
    cover.textContent = 'Session expired, sign in again';
    cover.style.cssText = 'position: fixed; inset: 0; z-index: 2147483647; background-color: white';
    content.append(cover);
    return true;
  });
  assert.ok(placed);
  const covered = await page.evaluate(() => {
    const w = window.innerWidth;
    const h = window.innerHeight;
    const points: Array<[number, number]> = [
      [1, 1],
      [w - 2, 1],
      [1, h - 2],
      [w - 2, h - 2],
      [w / 2, 20],
    ];
    return points.filter(([x, y]) => document.elementFromPoint(x, y)?.closest('.injected-cover'));
  });
  assert.deepEqual(covered, []);
});
