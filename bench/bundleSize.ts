import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { signUp } from '../e2e/auth.ts';
import { AppUnavailableError, startApp, type RunningApp } from './app.ts';
import { withBrowser } from './browser.ts';
import type { Fixtures } from './fixtures.ts';
import { buildPages, pagePath } from './pages/build.ts';
import { printFigures, skippedReport, table, type BenchReport, type Figure } from './report.ts';
import { formatBytes } from './stats.ts';
import { serveStatic } from './staticServer.ts';

const NAME = 'bundleSize';
const BASELINE = 'bare editor';
/** How long the network must stay quiet to count as idle (Playwright's `networkidle` too). */
const QUIET_MS = 500;
const READY_TIMEOUT_MS = 30_000;
/** What the writer types into the document that is then opened cold. */
const DOCUMENT_TEXT = 'A document with a few words in it, as a writer left it.';

/** One script the browser fetched. */
interface Script {
  url: string;
  /** The response body gzipped at level 9: what a gzip-serving server would send. */
  gzip: number;
}

/**
 * Loads `url` in a new tab with the HTTP cache disabled and collects every script response (module
 * scripts, dynamic imports, workers) until `ready` resolves and no request has been in flight for
 * `QUIET_MS`. Sizes are the gzip of each body, so both sides count alike whatever their server
 * sends (Inkwell's server and the bench's static server both send plain bodies).
 */
async function scriptsUntilIdle(
  context: BrowserContext,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<Script[]> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const pending: Promise<Script | undefined>[] = [];
  let inFlight = 0;
  let lastActivity = performance.now();
  const touch = () => (lastActivity = performance.now());
  page.on('request', () => {
    inFlight++;
    touch();
  });
  const done = () => {
    inFlight--;
    touch();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()['content-type'] ?? '';
    if (type !== 'script' && !/javascript/.test(contentType)) return;
    pending.push(
      response.body().then(
        (body) => ({
          url: new URL(response.url()).pathname,
          gzip: gzipSync(body, { level: 9 }).length,
        }),
        () => undefined,
      ),
    );
  });
  await page.goto(url, { timeout: READY_TIMEOUT_MS });
  await ready(page);
  await waitForQuiet(page, () => inFlight <= 0 && performance.now() - lastActivity >= QUIET_MS);
  const scripts = (await Promise.all(pending)).filter((s): s is Script => s !== undefined);
  await page.close();
  return scripts;
}

/**
 * The editor once it is on the shared document: until then the page shows the saved copy
 * read-only, so a page that is only that has not loaded what a writer needs to edit.
 */
const LIVE_EDITOR = '.ProseMirror[contenteditable=true]';

/** Waits until the status bar says every edit and the title are stored on the server. */
const savedShown = (page: Page) =>
  page
    .getByRole('status')
    .getByText('Saved', { exact: true })
    .waitFor({ timeout: READY_TIMEOUT_MS });

async function waitForQuiet(page: Page, quiet: () => boolean): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (!quiet()) {
    if (performance.now() > deadline) throw new Error(`${page.url()} never went network-idle`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Signs up in a first tab, makes a document and writes a line into it, waits until it is saved,
 * and returns its editor route's URL; the session cookie stays in `context`.
 */
async function documentRoute(context: BrowserContext, app: RunningApp): Promise<string> {
  const page = await context.newPage();
  await page.goto(`${app.url}/`, { timeout: READY_TIMEOUT_MS });
  await signUp(page);
  await page.getByRole('button', { name: 'New document' }).first().click();
  await page.waitForURL((u) => u.pathname.startsWith('/d/'), { timeout: READY_TIMEOUT_MS });
  // The live editor: the saved copy shown before it is read-only and would drop the keys.
  await page.locator(LIVE_EDITOR).click({ timeout: READY_TIMEOUT_MS });
  await page.keyboard.type(DOCUMENT_TEXT);
  // Edits go over the shared document's socket; "Saved" means the server has the typed line, so
  // that the cold load opens it from the server.
  await page.locator(LIVE_EDITOR).getByText(DOCUMENT_TEXT).waitFor({ timeout: READY_TIMEOUT_MS });
  await savedShown(page);
  const url = page.url();
  await page.close();
  return url;
}

function sum(scripts: readonly Script[]): number {
  return scripts.reduce((total, script) => total + script.gzip, 0);
}

/**
 * The JS the browser fetches for the editor route, signed in, with a document open and the cache
 * off, until the network is idle; against the bare Tiptap + tiptap-markdown page loaded the same
 * way in the same run.
 */
export async function bundleSize(_fixtures: Fixtures): Promise<BenchReport> {
  const pages = await buildPages();
  let app: RunningApp;
  try {
    app = await startApp();
  } catch (error) {
    if (!(error instanceof AppUnavailableError)) throw error;
    return skippedReport(NAME, BASELINE, error.message);
  }
  const pagesServer = await serveStatic(pages.dir);
  let inkwell: Script[];
  let bare: Script[];
  try {
    inkwell = await withBrowser(async (context) => {
      const route = await documentRoute(context, app);
      // Opened cold: the saved copy, then the shared document's code, connected and editable.
      return scriptsUntilIdle(context, route, async (page) => {
        await page
          .locator(LIVE_EDITOR)
          .getByText(DOCUMENT_TEXT)
          .waitFor({ timeout: READY_TIMEOUT_MS });
        await savedShown(page);
      });
    });
    bare = await withBrowser((context) =>
      scriptsUntilIdle(context, `${pagesServer.url}${pagePath('bare')}`, (page) =>
        page.waitForSelector('#editor .ProseMirror', { timeout: READY_TIMEOUT_MS }),
      ),
    );
  } finally {
    await pagesServer.close();
    await app.stop();
  }
  const rows = [['page', 'script', 'gzip']];
  for (const [page, scripts] of [
    ['Inkwell', inkwell],
    [BASELINE, bare],
  ] as const) {
    for (const script of scripts) rows.push([page, script.url, formatBytes(script.gzip)]);
  }
  console.log(table(rows, 2));
  console.log();
  const figures: Figure[] = [
    {
      label: 'JS of the editor route until network idle, gzip',
      value: sum(inkwell),
      baseline: sum(bare),
      unit: 'bytes',
      target: 1,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
