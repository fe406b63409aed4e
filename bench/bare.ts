import type { BrowserContext, Page } from 'playwright-core';
import { openPage } from './browser.ts';
import { pagePath, type BuiltPages } from './pages/build.ts';

/**
 * Opens the bare Tiptap editor page (served from `pagesUrl`) with the probe installed: with
 * tiptap-markdown, or (`official`) with Tiptap's own @tiptap/markdown.
 */
export async function openBare(
  context: BrowserContext,
  pages: BuiltPages,
  pagesUrl: string,
  page: 'bare' | 'official' = 'bare',
): Promise<Page> {
  await context.addInitScript({ path: pages.probePath });
  return openPage(
    context,
    `${pagesUrl}${pagePath(page)}`,
    () => 'bareBench' in window && 'benchProbe' in window,
  );
}

/** Loads Markdown into a bare editor page; resolves with the in-page ms until it was painted. */
export function loadBare(page: Page, markdown: string): Promise<number> {
  return page.evaluate((md) => window.bareBench.load(md), markdown);
}
