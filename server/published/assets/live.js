// The published page's only script (server/published/pageHtml.ts): keeps an open page current.
// It asks `<page>/content` every few seconds whether the article changed (ETag, so an unchanged
// page costs a 304), less often while the tab is hidden and after failures, and swaps the
// article in place, keeping the reader where they were. A page that stops being published says
// so. Without it the page is still whole; it only stops following edits.
(() => {
  'use strict';

  const VISIBLE_MS = 3000;
  const HIDDEN_MS = 30000;
  const MOST_MS = 60000;

  // Found before any swap, by position: the article's own HTML cannot stand in for them.
  const main = document.body.querySelector(':scope > main');
  const title = main?.querySelector(':scope > .page-title');
  const notice = main?.querySelector(':scope > .page-notice');
  const article = main?.querySelector(':scope > .page-content');
  if (!main || !title || !notice || !article) return;

  const url = `${location.pathname.replace(/\/+$/, '')}/content`;
  let etag = main.dataset.etag || '';
  let failures = 0;
  let timer = 0;
  let polling = false;
  let stopped = false;

  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    const base = document.hidden ? HIDDEN_MS : VISIBLE_MS;
    timer = setTimeout(poll, Math.min(MOST_MS, base * 2 ** failures));
  }

  async function poll() {
    if (polling || stopped) return;
    polling = true;
    try {
      const res = await fetch(url, {
        headers: etag ? { 'If-None-Match': etag } : {},
        cache: 'no-store',
        credentials: 'omit',
      });
      if (res.status === 404) {
        unpublished();
        return;
      }
      if (res.status !== 304) {
        if (!res.ok) throw new Error(`status ${res.status}`);
        const page = await res.json();
        etag = res.headers.get('ETag') || '';
        show(page);
      }
      failures = 0;
    } catch {
      failures = Math.min(failures + 1, 5);
    } finally {
      polling = false;
      schedule();
    }
  }

  /** The first block at least partly on screen: its HTML, its place and where it stood. */
  function anchor() {
    const blocks = article.children;
    for (let index = 0; index < blocks.length; index++) {
      const top = blocks[index].getBoundingClientRect();
      if (top.bottom > 0) return { html: blocks[index].outerHTML, index, top: top.top };
    }
    return null;
  }

  /** The same block after a swap: the nearest with the same HTML, else the one at its place. */
  function found(was) {
    const blocks = article.children;
    let best = null;
    for (let index = 0; index < blocks.length; index++) {
      if (blocks[index].outerHTML !== was.html) continue;
      if (!best || Math.abs(index - was.index) < Math.abs(best.index - was.index)) {
        best = { block: blocks[index], index };
      }
    }
    return best ? best.block : blocks[Math.min(was.index, blocks.length - 1)];
  }

  function show(page) {
    const text = page.title.trim() || 'Untitled';
    title.textContent = text;
    document.title = text;
    const was = anchor();
    article.innerHTML = page.html;
    const block = was && found(was);
    if (block) window.scrollBy(0, block.getBoundingClientRect().top - was.top);
  }

  function unpublished() {
    stopped = true;
    article.replaceChildren();
    title.hidden = true;
    notice.textContent = 'This page is no longer published.';
    notice.hidden = false;
    document.title = 'No longer published';
  }

  document.addEventListener('visibilitychange', () => {
    if (document.hidden) schedule();
    else void poll();
  });
  schedule();
})();
