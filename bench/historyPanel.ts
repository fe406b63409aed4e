import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Cookie, Page } from 'playwright-core';
import * as Y from 'yjs';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/csrf.ts';
import type { CreatedDocumentResponse, DocumentContent } from '../common/api/documents.ts';
import type { MeResponse } from '../common/api/session.ts';
import { parseMarkdown } from '../common/editor/markdown/index.ts';
import { seededRandom } from '../common/test/seededRandom.ts';
import { signUp } from '../e2e/auth.ts';
import { contentOfYDoc, nodeOfYDoc } from '../server/collab/yjsContent.ts';
import { YjsStore } from '../server/collab/yjsStore.ts';
import { openDatabase } from '../server/db/database.ts';
import { freePort } from '../server/test/freePort.ts';
import { VersionStore } from '../server/versions/versionStore.ts';
import {
  AppUnavailableError,
  startApp,
  waitForLiveEditor,
  withTimeout,
  type RunningApp,
} from './app.ts';
import { loadBare, openBare } from './bare.ts';
import { withBrowser } from './browser.ts';
import { TMP_DIR } from './paths.ts';
import { longTaskBreakdowns, traced, TRACE_CATEGORIES_WITH_STACKS } from './cpuProfile.ts';
import type { Fixtures } from './fixtures.ts';
import { buildPages } from './pages/build.ts';
import type { HistoryStep, StepTimings } from './pages/api.ts';
import { printFigures, skippedReport, table, type BenchReport, type Figure } from './report.ts';
import { formatMs, max, median } from './stats.ts';
import { serveStatic } from './staticServer.ts';
import { typeInto } from './versions.ts';

/*
 * The History panel in Chromium (docs/PRODUCT.md "Version history", issue 24): the owner of the
 * 1.2 MB document with 1,000 versions opens History, the newest version, and compares it with the
 * version before. Baseline, in the same run: the bare Tiptap + tiptap-markdown editor showing the
 * same Markdown (setContent until painted), what showing a document costs without Inkwell.
 */

const NAME = 'historyPanel';
const BASELINE = 'bare setContent 1.2 MB';
const RUNS = Number(process.env.HISTORY_PANEL_RUNS ?? 5);
const VERSIONS = Number(process.env.HISTORY_PANEL_VERSIONS ?? 1_000);
/** Words typed into a random block between two versions: a paragraph, as `versions` types. */
const WORDS_PER_VERSION = 40;
/** Every this many versions one is named, as people name a draft now and then. */
const NAMED_EVERY = 100;
/** Time between two versions: all 1,000 within the last day, which thinning keeps whole. */
const SECONDS_APART = 80;
/** Issue 24: a comparison as the user sees it within a second, and typing never waits for it. */
const COMPARE_LIMIT_MS = 1_000;
const LONG_TASK_LIMIT_MS = 50;
const OPEN_TIMEOUT_MS = 120_000;
const STEP_TIMEOUT_MS = 60_000;

/** The owner's document as seeded. */
interface Seeded {
  documentId: string;
  /** The first words of the newest version, which its preview must show. */
  firstWords: string;
  /** How long seeding the versions took, in ms. */
  seedMs: number;
}

const apiHeaders = (app: RunningApp) => ({ [CSRF_HEADER]: CSRF_HEADER_VALUE, Origin: app.url });

/**
 * Signs up the owner in Chromium and creates the document through the API with the fixture's
 * parsed content, as an import does; resolves with the owner's cookies, id and the document.
 */
async function signUpOwner(
  context: BrowserContext,
  app: RunningApp,
  content: DocumentContent,
): Promise<{ cookies: Cookie[]; userId: string; documentId: string }> {
  const page = await context.newPage();
  await page.goto(`${app.url}/`, { timeout: OPEN_TIMEOUT_MS });
  await signUp(page);
  const me = await page.request.get(`${app.url}/api/me`);
  const { user } = (await me.json()) as MeResponse;
  const created = await page.request.post(`${app.url}/api/documents?echo=0`, {
    headers: apiHeaders(app),
    data: { title: 'History bench', content },
  });
  if (!created.ok()) {
    throw new Error(`POST /api/documents answered ${created.status()}: ${await created.text()}`);
  }
  const { document } = (await created.json()) as CreatedDocumentResponse;
  const cookies = await context.cookies();
  await page.close();
  return { cookies, userId: user.id, documentId: document.id };
}

/**
 * Gives the document its versions through the server's own stores, in its database while the
 * server is stopped (PGlite is one process's): its Yjs state as the server converts it, then a
 * paragraph typed into a random block before each version, kept by `VersionStore.keep` as the
 * server keeps them (the owner recorded as the writer), spread over the last day; the live state
 * is left at the newest version.
 */
async function seedVersions(dataDir: string, userId: string, documentId: string): Promise<Seeded> {
  const started = performance.now();
  const db = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const yjs = new YjsStore(db);
    const loaded = await yjs.load(documentId);
    if (!loaded) throw new Error(`document ${documentId} is not in the database`);
    const { doc } = loaded;
    const store = new VersionStore(db);
    await store.recordClients(documentId, userId, [doc.clientID]);
    const random = seededRandom(24);
    for (let i = 1; i <= VERSIONS; i++) {
      typeInto(doc, random, WORDS_PER_VERSION);
      const named = i % NAMED_EVERY === 0;
      await store.keep(
        documentId,
        doc,
        named
          ? { kind: 'named', name: `Draft ${i / NAMED_EVERY}`, keptBy: userId, writers: [userId] }
          : { kind: 'auto', writers: [userId] },
      );
      if (i % 100 === 0) {
        console.log(
          `  ${i} versions kept (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }
    await db.query(
      `UPDATE document_versions
          SET created_at = now() - ((SELECT max(id) FROM document_versions WHERE document_id = $1)
                                    - id) * make_interval(secs => $2::double precision)
        WHERE document_id = $1`,
      [documentId, SECONDS_APART],
    );
    await yjs.compact(documentId, {
      state: Y.encodeStateAsUpdate(doc),
      previous: loaded.snapshot,
      updateIds: loaded.updateIds,
      content: contentOfYDoc(doc),
    });
    const first = nodeOfYDoc(doc).firstChild?.textContent ?? '';
    const firstWords = first.trim().split(/\s+/).slice(0, 4).join(' ');
    if (firstWords === '') throw new Error('the document starts without text');
    return { documentId, firstWords, seedMs: performance.now() - started };
  } finally {
    await db.close();
  }
}

/** Waits for `step` after `act` (the click or change that starts it), in the page's own clock. */
async function measureStep(
  page: Page,
  step: HistoryStep,
  act: () => Promise<void>,
): Promise<StepTimings> {
  await page.evaluate((watched) => window.benchProbe.watchStep(watched), step);
  await act();
  return withTimeout(
    page.evaluate(() => window.benchProbe.stepDone()),
    STEP_TIMEOUT_MS,
    `the history panel's "${step.kind}" step did not show`,
  );
}

/** Where the traced compare step is written. */
const TRACE_PATH = join(TMP_DIR, 'historyPanel-compare.trace.json');

/** A long task of a trace: its length and its largest self times. */
type TracedTask = ReturnType<typeof longTaskBreakdowns>[number];

/**
 * One round in a fresh browser signed in as the owner: the document opened, then the three
 * steps; with `traceCompare`, the compare step under a trace, its long tasks taken apart.
 */
async function historyRound(
  app: RunningApp,
  probePath: string,
  cookies: Cookie[],
  seeded: Seeded,
  traceCompare = false,
): Promise<{
  list: StepTimings;
  version: StepTimings;
  compare: StepTimings;
  tracedTasks: TracedTask[];
}> {
  return withBrowser(async (context) => {
    await context.addCookies(cookies);
    await context.addInitScript({ path: probePath });
    const page = await context.newPage();
    await page.goto(`${app.url}/d/${seeded.documentId}`, { timeout: OPEN_TIMEOUT_MS });
    await waitForLiveEditor(page, OPEN_TIMEOUT_MS);
    const settle = () => page.evaluate(() => window.benchProbe.settle(500, 10_000));
    await settle();
    const list = await measureStep(page, { kind: 'list' }, () =>
      page.getByRole('button', { name: 'History', exact: true }).click(),
    );
    await settle();
    const text = seeded.firstWords;
    const version = await measureStep(page, { kind: 'version', text }, () =>
      page.locator('.ink-history__version').first().click(),
    );
    const select = page.getByLabel('Compare with');
    // The versions listed after the one shown, newest first: the first is the one before it.
    const before = await select.evaluate((element: HTMLSelectElement) =>
      [...element.options].map((option) => option.value).find((value) => /^\d+$/.test(value)),
    );
    if (before === undefined) throw new Error('"Compare with" offers no other version');
    // Chosen as the browser does on a pick, on the element found beforehand: Playwright's
    // selectOption finds the select by its label first, a walk over every element of both long
    // documents (~200 ms of script under a trace), inside the measured step.
    const handle = await select.elementHandle();
    const compareStep = () =>
      measureStep(page, { kind: 'compare', text }, () =>
        handle.evaluate((element: HTMLSelectElement, value) => {
          element.value = value;
          element.dispatchEvent(new Event('input', { bubbles: true }));
          element.dispatchEvent(new Event('change', { bubbles: true }));
        }, before),
      );
    if (!traceCompare) {
      await settle();
      return { list, version, compare: await compareStep(), tracedTasks: [] };
    }
    // The trace starts before the page goes quiet: starting it is a long task of its own.
    const cdp = await context.newCDPSession(page);
    const { result: compare, trace } = await traced(
      cdp,
      async () => {
        await settle();
        return compareStep();
      },
      TRACE_CATEGORIES_WITH_STACKS,
    );
    // Kept for a closer look (chrome://tracing or DevTools' Performance panel can open it).
    await writeFile(TRACE_PATH, JSON.stringify({ traceEvents: trace }));
    return { list, version, compare, tracedTasks: longTaskBreakdowns(trace) };
  });
}

/** The bare editor showing the Markdown: ms until painted, and its longest task. */
async function bareRound(
  pages: Awaited<ReturnType<typeof buildPages>>,
  pagesUrl: string,
  markdown: string,
): Promise<{ ms: number; longestTask: number }> {
  return withBrowser(async (context) => {
    const page = await openBare(context, pages, pagesUrl);
    await page.evaluate(() => window.benchProbe.settle(500, 10_000));
    const since = await page.evaluate(() => performance.now());
    const ms = await loadBare(page, markdown);
    await page.evaluate(() => window.benchProbe.settle(300, 5_000));
    const longestTask = await page.evaluate((at) => window.benchProbe.longestTaskSince(at), since);
    return { ms, longestTask };
  });
}

type Round = Awaited<ReturnType<typeof historyRound>>;

/**
 * The longest long task that ended by the compare worker's answer: the comparison's own
 * main-thread work (the other version read, checked, sent), not the drawing of its result.
 */
function whileComparing(step: StepTimings): number {
  if (Number.isNaN(step.workerAnswered)) return Number.NaN;
  return step.tasks
    .filter(([at, ms]) => at + ms <= step.workerAnswered)
    .reduce((longest, [, ms]) => Math.max(longest, ms), 0);
}

/** Where each step's time goes: each milestone's median, from the click or change, and the step. */
function phaseRows(rounds: readonly Round[]): string[][] {
  const phases: [string, (r: Round) => number][] = [
    ['History: the list received (GET /versions)', (r) => r.list.versionsAnswered],
    ['History: the first page drawn', (r) => r.list.shown],
    [
      'version: received (GET /versions/:id, rebuilt by the server)',
      (r) => r.version.versionsAnswered,
    ],
    ['version: its text painted (read, checked, drawn)', (r) => r.version.shown],
    ['compare: the version before received', (r) => r.compare.versionsAnswered],
    ['compare: posted to the worker (read, checked, both as JSON)', (r) => r.compare.workerPosted],
    ['compare: the worker answered', (r) => r.compare.workerAnswered],
    ['compare: the change count painted', (r) => r.compare.shown],
    ['compare: the compared document painted', (r) => r.compare.drawn],
  ];
  const rows = [["milestone (median of rounds, from its step's click or change)", 'at', 'step']];
  let previous = 0;
  let step = '';
  for (const [name, of] of phases) {
    const at = median(rounds.map(of));
    const kind = name.split(':')[0]!;
    if (kind !== step) previous = 0;
    step = kind;
    rows.push([name, formatMs(at), formatMs(at - previous)]);
    previous = at;
  }
  return rows;
}

/** Runs the History panel benchmark. */
export async function historyPanel(fixtures: Fixtures): Promise<BenchReport> {
  const { large } = fixtures;
  const content = parseMarkdown(large.markdown).toJSON() as DocumentContent;
  const pages = await buildPages();
  const pagesServer = await serveStatic(pages.dir);
  const dataDir = await mkdtemp(join(tmpdir(), 'inkwell-bench-history-'));
  // The same port for both starts: the owner's cookies are for it.
  const port = await freePort();
  const rounds: Round[] = [];
  const bare: Awaited<ReturnType<typeof bareRound>>[] = [];
  try {
    let app = await startApp({ dataDir, port });
    let owner: Awaited<ReturnType<typeof signUpOwner>>;
    try {
      owner = await withBrowser((context) => signUpOwner(context, app, content));
    } finally {
      await app.stop();
    }
    console.log(`Seeding ${VERSIONS} versions of ${large.name} into the stopped server's PGlite:`);
    const seeded = await seedVersions(dataDir, owner.userId, owner.documentId);
    console.log(
      `Seeded in ${(seeded.seedMs / 1000).toFixed(0)} s; the preview must show "${seeded.firstWords}".`,
    );
    app = await startApp({ dataDir, port });
    try {
      for (let run = 0; run < RUNS; run++) {
        // Interleaved, so drift in the machine's speed affects both sides alike.
        bare.push(await bareRound(pages, pagesServer.url, large.markdown));
        rounds.push(await historyRound(app, pages.probePath, owner.cookies, seeded));
        const { list, version, compare } = rounds.at(-1)!;
        console.log(
          `  run ${run + 1}: list ${formatMs(list.shown)} (${list.rows} rows), ` +
            `version ${formatMs(version.shown)}, compare ${formatMs(compare.shown)} ` +
            `("${compare.bar}"), drawn ${formatMs(compare.drawn)}, longest task ` +
            `${formatMs(whileComparing(compare))} until the worker answered, ` +
            `${formatMs(compare.longestTask)} until drawn (${compare.tasks.length} long); ` +
            `bare ${formatMs(bare.at(-1)!.ms)}`,
        );
        for (const [at, ms, scripts] of compare.tasks) {
          console.log(
            `    compare's ${formatMs(ms)} at ${formatMs(at)}: ${scripts.join('; ') || '?'}`,
          );
        }
      }
      // Once more, unmeasured, under a trace: what the compare step's long tasks did.
      const { compare, tracedTasks } = await historyRound(
        app,
        pages.probePath,
        owner.cookies,
        seeded,
        true,
      );
      console.log(
        `Traced compare (${TRACE_PATH}): drawn ${formatMs(compare.drawn)}, ` +
          `${tracedTasks.length} long tasks`,
      );
      for (const task of tracedTasks) {
        const parts = task.top.map(([name, ms]) => `${name} ${formatMs(ms)}`).join(', ');
        console.log(
          `  traced long task of ${formatMs(task.ms)}, posted by ${task.postedFrom}: ${parts}`,
        );
      }
    } finally {
      await app.stop();
    }
  } catch (error) {
    if (error instanceof AppUnavailableError) return skippedReport(NAME, BASELINE, error.message);
    throw error;
  } finally {
    await pagesServer.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(table(phaseRows(rounds), 2));
  const last = rounds.at(-1)!;
  const tasks = (step: StepTimings) =>
    step.tasks.map(([at, ms]) => `${formatMs(ms)} at ${formatMs(at)}`).join(', ') || 'none';
  console.log(`Long tasks of the last round, from each step's start:`);
  console.log(`  list: ${tasks(last.list)}\n  version: ${tasks(last.version)}`);
  console.log(`  compare: ${tasks(last.compare)}\n`);
  const bareMs = median(bare.map((b) => b.ms));
  const bareTask = median(bare.map((b) => b.longestTask));
  const of = (pick: (round: Round) => number) => rounds.map(pick);
  const figures: Figure[] = [
    {
      label: `open History: the first page of ${VERSIONS} versions drawn, median of ${RUNS}`,
      value: median(of((r) => r.list.shown)),
      baseline: bareMs,
      unit: 'ms',
    },
    {
      label: `open the newest version: its text shown read-only, median of ${RUNS}`,
      value: median(of((r) => r.version.shown)),
      baseline: bareMs,
      unit: 'ms',
    },
    {
      label: `compare it with the version before: the change count shown, median of ${RUNS}`,
      value: median(of((r) => r.compare.shown)),
      baseline: bareMs,
      unit: 'ms',
      limit: COMPARE_LIMIT_MS,
    },
    {
      label: `compare: the compared document drawn too, median of ${RUNS}`,
      value: median(of((r) => r.compare.drawn)),
      baseline: bareMs,
      unit: 'ms',
      limit: COMPARE_LIMIT_MS,
    },
    {
      label: `longest main-thread task until the compare worker answered, worst of ${RUNS}`,
      value: max(of((r) => whileComparing(r.compare))),
      baseline: bareTask,
      unit: 'ms',
      limit: LONG_TASK_LIMIT_MS,
    },
    {
      label: `longest main-thread task until the compared document is drawn, worst of ${RUNS}`,
      value: max(of((r) => r.compare.longestTask)),
      baseline: bareTask,
      unit: 'ms',
      limit: LONG_TASK_LIMIT_MS,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
