import type { Editor } from '@tiptap/core';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { startFakeAiProvider, type FakeAiProvider } from '../server/test/fakeAiProvider.ts';
import {
  AppUnavailableError,
  importThroughUi,
  openInkwell,
  startApp,
  withTimeout,
  type RunningApp,
} from './app.ts';
import { withBrowser } from './browser.ts';
import {
  longTaskBreakdowns,
  mainThreadSelfTimes,
  top,
  traced,
  type Breakdown,
} from './cpuProfile.ts';
import type { Fixture, Fixtures } from './fixtures.ts';
import { endHeading } from './headings.ts';
import { buildPages } from './pages/build.ts';
import { TOP_LEVEL_PARAGRAPHS } from './pages/api.ts';
import { printFigures, skippedReport, table, type BenchReport, type Figure } from './report.ts';
import { formatMs, median } from './stats.ts';

const NAME = 'aiStream';
const BASELINE = 'one transaction per token';
/** Characters per chunk the fake sends: about one token each. */
const CHUNK_CHARS = 4;
/** The fake's wait between chunks. */
const DELAY_MS = 2;
/** About 2,000 tokens of answer at four characters a token. */
const REPLY_CHARS = 8_000;
const STREAM_TIMEOUT_MS = 120_000;
/** The issue's target: no long task (over 50 ms) while the answer streams. */
const LONG_TASK_LIMIT = 0;
/** Rounds, each in a fresh browser: the stream, then the baseline in the same page. */
const ROUNDS = 2;

/** What one side measured in the page. */
interface StreamMeasure {
  /** Editor transactions dispatched, and how many of them changed the document. */
  transactions: number;
  docChanges: number;
  /** Renderer main-thread task time (CDP `TaskDuration`), in ms. */
  mainThreadMs: number;
  /** Of which script, style recalculation and layout (CDP `ScriptDuration`, …), in ms. */
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
  /** Long tasks (over 50 ms) and their durations. */
  longTasks: number[];
  /** When each started, in ms since the start. */
  longTaskAt: number[];
  /** From the start to the frame in which the last piece was shown. */
  elapsedMs: number;
}

/** The counters installed in the page as `window.aiStreamBench`. */
interface PageCounters {
  transactions: number;
  docChanges: number;
  longTasks: number[];
  /** When each long task started, in ms since `startedAt`. */
  longTaskAt: number[];
  startedAt: number;
}

declare global {
  interface Window {
    aiStreamBench?: PageCounters;
  }
}

/** An answer of `chars` characters of Markdown: paragraphs with some bold, and bullet lists. */
function replyOf(chars: number): string {
  const words = (
    'the writer revised each sentence with care so that the argument reads clearly from the ' +
    'first line to the last and every claim is supported by an example drawn from the notes'
  ).split(' ');
  const blocks: string[] = [];
  let length = 0;
  for (let block = 0; length < chars; block++) {
    let text: string;
    if (block % 4 === 3) {
      text = [0, 1, 2]
        .map((item) => `- ${words.slice(item * 3, item * 3 + 8).join(' ')} **item ${item + 1}**`)
        .join('\n');
    } else {
      const body = Array.from({ length: 60 }, (_, i) => words[(i + block) % words.length]);
      body[10] = `**${body[10]} ${body[11]}**`;
      body.splice(11, 1);
      text = `${body.join(' ')}.`.replace(/^./, (first) => first.toUpperCase());
    }
    blocks.push(text);
    length += text.length + 2;
  }
  return blocks.join('\n\n').slice(0, chars);
}

/** The pieces the fake sends, split as it splits them. */
function chunksOf(reply: string): string[] {
  const characters = Array.from(reply);
  const pieces: string[] = [];
  for (let at = 0; at < characters.length; at += CHUNK_CHARS) {
    pieces.push(characters.slice(at, at + CHUNK_CHARS).join(''));
  }
  return pieces;
}

/** Installs the transaction and long-task counters once; `startCounting` zeroes them. */
async function installCounters(page: Page): Promise<void> {
  await page.evaluate(() => {
    const root = document.querySelector('.ProseMirror') as
      (HTMLElement & { editor?: Editor }) | null;
    const editor = root?.editor;
    if (!editor) throw new Error('no Tiptap editor on .ProseMirror');
    const counters: PageCounters = {
      transactions: 0,
      docChanges: 0,
      longTasks: [],
      longTaskAt: [],
      startedAt: 0,
    };
    window.aiStreamBench = counters;
    editor.on('transaction', ({ transaction }) => {
      counters.transactions += 1;
      if (transaction.docChanged) counters.docChanges += 1;
    });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.startTime < counters.startedAt) continue;
        counters.longTasks.push(entry.duration);
        counters.longTaskAt.push(entry.startTime - counters.startedAt);
      }
    }).observe({ type: 'longtask' });
  });
}

async function startCounting(page: Page): Promise<void> {
  await page.evaluate(() => {
    const counters = window.aiStreamBench!;
    counters.transactions = 0;
    counters.docChanges = 0;
    counters.longTasks = [];
    counters.longTaskAt = [];
    counters.startedAt = performance.now();
  });
}

/** The renderer's main-thread time so far, in ms: tasks, and script, style and layout in them. */
interface Busy {
  task: number;
  script: number;
  style: number;
  layout: number;
}

async function busyMs(cdp: CDPSession): Promise<Busy> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const ms = (name: string) =>
    (metrics.find((metric) => metric.name === name)?.value ?? Number.NaN) * 1000;
  return {
    task: ms('TaskDuration'),
    script: ms('ScriptDuration'),
    style: ms('RecalcStyleDuration'),
    layout: ms('LayoutDuration'),
  };
}

/**
 * Selects the text of the plain paragraph in the middle of the document, scrolled to the middle
 * of the viewport, and returns its range.
 */
async function selectMiddleParagraph(page: Page): Promise<{ from: number; to: number }> {
  const index = await page.evaluate(() => window.benchProbe.middleParagraph());
  return page.evaluate(
    ([index, selector]) => {
      const root = document.querySelector('.ProseMirror') as HTMLElement & { editor: Editor };
      const paragraph = root.parentElement?.querySelectorAll(selector)[index];
      if (!paragraph) throw new Error(`no paragraph ${index}`);
      paragraph.scrollIntoView({ block: 'center' });
      const { view } = root.editor;
      const inside = view.state.doc.resolve(view.posAtDOM(paragraph, 0));
      const range = { from: inside.start(), to: inside.end() };
      root.editor.chain().focus().setTextSelection(range).run();
      // Selecting may gather the chunks around the paragraph, which moves its positions.
      const { from, to } = view.state.selection;
      return { from, to };
    },
    [index, TOP_LEVEL_PARAGRAPHS] as const,
  );
}

/** Resolves, in the page, at the first frame in which `Accept: Replace` shows. */
function acceptShown(page: Page): Promise<number> {
  // No named functions in here: tsx would wrap them in a `__name` the page does not have.
  const shown = page.evaluate(async () => {
    for (;;) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const buttons = [...document.querySelectorAll('[aria-label="AI suggestion"] button')];
      if (
        buttons.some(
          (button) =>
            button.textContent === 'Accept: Replace' &&
            !(button as HTMLButtonElement).hidden &&
            button.getClientRects().length > 0,
        )
      ) {
        return performance.now() - window.aiStreamBench!.startedAt;
      }
    }
  });
  // Awaited later, after the click; a failure before then is not unhandled.
  shown.catch(() => undefined);
  return shown;
}

async function finish(page: Page, cdp: CDPSession, before: Busy, elapsedMs: number) {
  const after = await busyMs(cdp);
  // Long-task entries are delivered a little after the task.
  await page.waitForTimeout(200);
  const counters = await page.evaluate(() => window.aiStreamBench!);
  return {
    transactions: counters.transactions,
    docChanges: counters.docChanges,
    mainThreadMs: after.task - before.task,
    scriptMs: after.script - before.script,
    styleMs: after.style - before.style,
    layoutMs: after.layout - before.layout,
    longTasks: counters.longTasks,
    longTaskAt: counters.longTaskAt,
    elapsedMs,
  } satisfies StreamMeasure;
}

/** "Improve writing" on the selection, streamed from the fake until Accept shows. */
async function measureAi(page: Page, cdp: CDPSession, reply: string): Promise<StreamMeasure> {
  await page.keyboard.press('Control+j');
  const locator = page.getByRole('menuitem', { name: 'Improve writing' });
  await locator.waitFor();
  // Resolved before the clock starts: a role locator resolves again on click, and computing
  // roles and names over a 30k-word page is ~20 ms of the harness's script in the page.
  const item = await locator.elementHandle();
  if (!item) throw new Error('the "Improve writing" item went away');
  await startCounting(page);
  const before = await busyMs(cdp);
  const shown = acceptShown(page);
  await item.click();
  const elapsedMs = await withTimeout(shown, STREAM_TIMEOUT_MS, 'the suggestion did not finish');
  const measure = await finish(page, cdp, before, elapsedMs);
  const box = page.locator('[aria-label="AI suggestion"]');
  const shownText = (await box.locator('.ink-ai-suggestion__content').textContent()) ?? '';
  const lastWords = reply
    .replace(/[*\-\n]/g, ' ')
    .trim()
    .split(/\s+/)
    .slice(-3)
    .join(' ');
  if (!shownText.replace(/\s+/g, ' ').includes(lastWords)) {
    throw new Error(`the suggestion does not end with "${lastWords}": ${shownText.slice(-200)}`);
  }
  await box.getByRole('button', { name: 'Discard' }).click();
  await box.waitFor({ state: 'detached' });
  return measure;
}

/**
 * The same pieces inserted into the same selection, one `insertText` transaction each, paced to
 * the same schedule: piece `i` once `i × elapsedMs / pieces` have passed, one per task.
 */
async function measureBaseline(
  page: Page,
  cdp: CDPSession,
  pieces: readonly string[],
  paceMs: number,
): Promise<StreamMeasure> {
  await startCounting(page);
  const before = await busyMs(cdp);
  const elapsedMs = await page.evaluate(
    async ({ pieces, paceMs }) => {
      const root = document.querySelector('.ProseMirror') as HTMLElement & { editor: Editor };
      const { view } = root.editor;
      const started = window.aiStreamBench!.startedAt;
      const channel = new MessageChannel();
      for (let next = 0; next < pieces.length; next++) {
        view.dispatch(view.state.tr.insertText(pieces[next]!));
        const wait = started + (next + 1) * paceMs - performance.now();
        // setTimeout is clamped to 4 ms when nested; a message is not.
        await new Promise((resolve) => {
          if (wait > 4) {
            setTimeout(resolve, wait);
            return;
          }
          channel.port2.onmessage = resolve;
          channel.port1.postMessage(null);
        });
      }
      // Ends, as the other side does, at the frame that shows the last piece.
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return performance.now() - started;
    },
    { pieces, paceMs },
  );
  return finish(page, cdp, before, elapsedMs);
}

/** A fresh page of the app holding the 30k-word fixture, with the counters installed. */
async function openDocument(
  context: BrowserContext,
  app: RunningApp,
  probePath: string,
  fixture: Fixture,
): Promise<{ page: Page; cdp: CDPSession; range: { from: number; to: number } }> {
  const page = await openInkwell(context, app, probePath);
  await importThroughUi(page, fixture.path, endHeading(fixture.markdown));
  await page.evaluate(() => window.benchProbe.settle(1000, 20_000));
  await installCounters(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const range = await selectMiddleParagraph(page);
  await page.evaluate(() => window.benchProbe.settle(500, 10_000));
  return { page, cdp, range };
}

/** One round in a fresh browser: the stream, then the baseline in the same page. */
async function measure(
  app: RunningApp,
  probePath: string,
  fixture: Fixture,
  reply: string,
): Promise<{ ai: StreamMeasure; bare: StreamMeasure }> {
  return withBrowser(async (context) => {
    const { page, cdp, range } = await openDocument(context, app, probePath, fixture);
    const ai = await measureAi(page, cdp, reply);
    await page.evaluate(() => window.benchProbe.settle(1000, 20_000));
    await page.evaluate((range) => {
      const root = document.querySelector('.ProseMirror') as HTMLElement & { editor: Editor };
      root.editor.chain().focus().setTextSelection(range).run();
    }, range);
    await page.evaluate(() => window.benchProbe.settle(500, 10_000));
    const pieces = chunksOf(reply);
    const bare = await measureBaseline(page, cdp, pieces, ai.elapsedMs / pieces.length);
    return { ai, bare };
  });
}

/** The stream once more, unmeasured, under a trace: the main thread's time by trace event. */
async function traceStream(
  app: RunningApp,
  probePath: string,
  fixture: Fixture,
  reply: string,
): Promise<{
  ai: StreamMeasure;
  breakdown: Breakdown;
  longTasks: { ms: number; top: [string, number][] }[];
}> {
  return withBrowser(async (context) => {
    const { page, cdp } = await openDocument(context, app, probePath, fixture);
    const { result: ai, trace } = await traced(cdp, () => measureAi(page, cdp, reply));
    return { ai, breakdown: mainThreadSelfTimes(trace), longTasks: longTaskBreakdowns(trace) };
  });
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * A ~2,000-token answer ("Improve writing", from the fake provider) streamed into the 30k-word
 * document in the built app, against the same pieces inserted one transaction per token into
 * the same editor: transactions, main-thread time, long tasks.
 */
export async function aiStream(fixtures: Fixtures): Promise<BenchReport> {
  const pages = await buildPages();
  const reply = replyOf(REPLY_CHARS);
  const pieces = chunksOf(reply);
  let fake: FakeAiProvider | undefined;
  let app: RunningApp | undefined;
  try {
    fake = await startFakeAiProvider();
    fake.setBehaviour({ kind: 'answer' }, { reply, chunkChars: CHUNK_CHARS, delayMs: DELAY_MS });
    try {
      app = await startApp({
        env: {
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: 'fake',
          AI_MAX_OUTPUT_TOKENS: '4096',
          AI_REQUESTS_PER_MINUTE: '10000',
          AI_DAILY_TOKEN_BUDGET: '1000000000',
        },
      });
    } catch (error) {
      if (!(error instanceof AppUnavailableError)) throw error;
      return skippedReport(NAME, BASELINE, error.message);
    }
    const fixture = fixtures.byWords.find((f) => f.nominal === 30_000) ?? fixtures.byWords[1]!;
    const document = `${fixture.name} (${fixture.words} words)`;
    const rounds: { ai: StreamMeasure; bare: StreamMeasure }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(await measure(app, pages.probePath, fixture, reply));
    }
    const traced = await traceStream(app, pages.probePath, fixture, reply);
    console.log(
      `"Improve writing" on a paragraph in the middle of the ${document} fixture, imported ` +
        `through the UI; the fake streams ${reply.length} characters of Markdown in ` +
        `${pieces.length} chunks of ${CHUNK_CHARS}, ${DELAY_MS} ms apart, until Accept shows. ` +
        `Baseline: then, in the same page, the same chunks into the same selection, ` +
        `view.dispatch(state.tr.insertText(chunk)) each, paced to the stream's duration. ` +
        `${ROUNDS} rounds, a fresh browser each. Transactions counted with ` +
        `editor.on('transaction'); main-thread time is CDP Performance.getMetrics.`,
    );
    console.log(
      table(
        [
          [
            'round',
            'editor',
            'transactions',
            'doc changes',
            'main thread',
            'script',
            'style',
            'layout',
            'long tasks',
            'longest',
            'elapsed',
          ],
          ...rounds.flatMap(({ ai, bare }, round) =>
            (
              [
                ['Inkwell', ai],
                [BASELINE, bare],
              ] as const
            ).map(([name, m]) => [
              String(round + 1),
              name,
              String(m.transactions),
              String(m.docChanges),
              formatMs(m.mainThreadMs),
              formatMs(m.scriptMs),
              formatMs(m.styleMs),
              formatMs(m.layoutMs),
              `${m.longTasks.length} (${Math.round(sum(m.longTasks))} ms)`,
              m.longTasks.length === 0 ? '—' : formatMs(Math.max(...m.longTasks)),
              formatMs(m.elapsedMs),
            ]),
          ),
        ],
        2,
      ),
    );
    const ai = rounds.map((r) => r.ai);
    const bare = rounds.map((r) => r.bare);
    const longTasks = (side: StreamMeasure[]) => sum(side.map((m) => m.longTasks.length));
    console.log(
      `Long tasks over 50 ms while streaming, all rounds: ${longTasks(ai)}; target none: ` +
        `${longTasks(ai) <= LONG_TASK_LIMIT ? 'met' : 'MISSED'}.`,
    );
    console.log(
      `Where the stream's main-thread time goes, from one more, traced stream (` +
        `${formatMs(traced.ai.mainThreadMs)} main thread, ${traced.ai.longTasks.length} long tasks` +
        `${traced.ai.longTasks.length === 0 ? '' : `, longest ${formatMs(Math.max(...traced.ai.longTasks))}`}` +
        `), self time by trace event:`,
    );
    for (const [name, ms] of top(traced.breakdown, 10)) {
      console.log(`  ${formatMs(ms).padStart(9)}  ${name}`);
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    rounds.forEach(({ ai, bare }, round) => {
      if (bare.elapsedMs <= ai.elapsedMs * 1.2) return;
      console.log(
        `Round ${round + 1}: the baseline could not keep the stream's pace; its ` +
          `${bare.transactions} transactions took ${seconds(bare.elapsedMs)} against ` +
          `${seconds(ai.elapsedMs)} (≈ ${formatMs(bare.mainThreadMs / bare.transactions)} ` +
          `of main thread each), so its main thread was saturated.`,
      );
    });
    rounds.forEach(({ ai }, round) => {
      if (ai.longTasks.length === 0) return;
      const at = ai.longTaskAt.map(
        (ms, i) => `${formatMs(ai.longTasks[i] ?? 0)} at ${seconds(ms)}`,
      );
      console.log(`Round ${round + 1}, long tasks: ${at.join(', ')} of ${seconds(ai.elapsedMs)}.`);
    });
    for (const task of traced.longTasks) {
      const parts = task.top.map(([name, ms]) => `${name} ${formatMs(ms)}`).join(', ');
      console.log(`Traced long task of ${formatMs(task.ms)}: ${parts}`);
    }
    const figures: Figure[] = [
      {
        label: 'editor transactions, median',
        value: median(ai.map((m) => m.transactions)),
        baseline: median(bare.map((m) => m.transactions)),
        unit: 'count',
      },
      {
        label: 'main-thread time, median',
        value: median(ai.map((m) => m.mainThreadMs)),
        baseline: median(bare.map((m) => m.mainThreadMs)),
        unit: 'ms',
      },
      {
        label: 'long tasks > 50 ms, all rounds',
        value: longTasks(ai),
        baseline: longTasks(bare),
        unit: 'count',
        limit: LONG_TASK_LIMIT,
      },
    ];
    printFigures(figures, BASELINE);
    return { name: NAME, baselineName: BASELINE, figures };
  } finally {
    await app?.stop();
    await fake?.close();
  }
}
