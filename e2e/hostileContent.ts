import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/*
 * Content written to attack whoever opens it: styles that draw outside a document's place, and
 * the DOMPurify project's XSS payloads (test-corpus/). Used by the tests of one person's file
 * (confinement, xss) and of a document shared with others (sharingInstances).
 */

/** One XSS payload of DOMPurify's fixtures. */
export interface XssCase {
  title: string;
  payload: string;
}

/** DOMPurify's XSS fixtures, from test-corpus/. */
export const XSS_CASES: readonly XssCase[] = (
  JSON.parse(
    readFileSync(new URL('../test-corpus/xss/dompurify-fixtures.json', import.meta.url), 'utf8'),
  ) as { cases: XssCase[] }
).cases;

/** Styles a hostile file uses to draw outside its place in the document. */
export const HOSTILE_STYLES = [
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
export function hostileMarkdown(): string {
  const blocks = HOSTILE_STYLES.map(
    (style, i) =>
      `<div style="${style}">\nSession expired, <a href="https://example.com/login">sign in again</a> (block ${i})\n</div>\n\n` +
      `Inline ${i}: <span style="${style}">fake prompt ${i}</span> and <img src="data:image/png;base64,iVBORw0KGgo=" width="10" style="${style}">\n`,
  );
  return `hostile-file\n\n${blocks.join('\n')}`;
}

/**
 * Elements that came from the file or the paste whose box reaches outside the editor's, and the
 * points at the window's corners and across its top bar where such an element is on top.
 */
export async function escapes(
  page: Page,
  editor: Locator = page.locator('.ProseMirror'),
): Promise<{ outside: string[]; onTop: string[] }> {
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  return editor.evaluate((editor) => {
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
