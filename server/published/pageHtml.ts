import { escapeAttribute, escapeText } from 'entities/escape';
import type { PageView } from './publishedPages.ts';

/** Where the page's style sheet and script are served (same origin: `'self'` in the policy). */
export const PAGE_CSS_PATH = '/p/page.css';
export const LIVE_SCRIPT_PATH = '/p/live.js';

/**
 * The policy of every published page and its 404: no inline script, no frames, no plugins, and
 * nothing loaded from elsewhere but https images. Style attributes are allowed as the document's
 * colours and alignments are data passed through the style allow-list (common/editor/html/style.ts).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every published page, its 404 and its content: nothing cached, nothing referred. */
export function pageHeaders(indexable: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': PAGE_CSP,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...(indexable ? {} : { 'X-Robots-Tag': 'noindex' }),
  };
}

/** What a page shows when its document has no title. */
const UNTITLED = 'Untitled';

function head(title: string, indexable: boolean, script: boolean): string {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${indexable ? '' : '<meta name="robots" content="noindex">\n'}<meta name="referrer" content="no-referrer">
<title>${escapeText(title)}</title>
<link rel="stylesheet" href="${PAGE_CSS_PATH}">
${script ? `<script src="${LIVE_SCRIPT_PATH}" defer></script>\n` : ''}</head>`;
}

/**
 * A published page: the title and the article, readable without script. The script keeps it
 * current (assets/live.js), knowing the article's version by the ETag on `main`.
 */
export function publishedPageHtml(page: PageView): string {
  const title = page.title.trim() || UNTITLED;
  return `${head(title, page.indexable, true)}
<body>
<main class="page" data-etag="${escapeAttribute(page.etag)}">
<h1 class="page-title">${escapeText(title)}</h1>
<p class="page-notice" role="status" hidden></p>
<article class="page-content">${page.html}</article>
</main>
</body>
</html>
`;
}

/** The one answer for every address that shows no page, whatever the reason. */
export function missingPageHtml(): string {
  return `${head('Page not found', false, false)}
<body>
<main class="page">
<h1 class="page-title">This page is not published</h1>
<p>The address may be mistyped, or the page is no longer published.</p>
</main>
</body>
</html>
`;
}
