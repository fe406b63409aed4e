import {
  AppUnavailableError,
  importByDrop,
  importThroughUi,
  openInkwell,
  startApp,
  type RunningApp,
} from './app.ts';
import { loadBare, openBare } from './bare.ts';
import { withBrowser } from './browser.ts';
import type { Fixtures } from './fixtures.ts';
import { endHeading } from './headings.ts';
import { buildPages } from './pages/build.ts';
import type { ShownTimings } from './pages/api.ts';
import { printFigures, skippedReport, table, type BenchReport, type Figure } from './report.ts';
import { formatBytes, formatMs, median } from './stats.ts';
import { serveStatic } from './staticServer.ts';

const NAME = 'uiImport';
const BASELINE = 'bare setContent';
const RUNS = 5;
const TARGET = 0.5;

/** A milestone that was not reached (NaN) goes last. */
const orderOf = (at: number) => (Number.isNaN(at) ? Infinity : at);

/** Where an import's time goes, from the file chosen: each milestone's median and the step to it. */
function phaseRows(runs: readonly ShownTimings[]): string[][] {
  const phases: [string, (t: ShownTimings) => number][] = [
    ['parse started (file read, codec loaded, progress painted)', (t) => t.parseStart],
    ['parsed', (t) => t.parsed],
    ['read-only copy painted (parse, open, paint)', (t) => t.readOnly],
    ['POST /api/documents sent (create)', (t) => t.createSent],
    ['POST /api/documents answered', (t) => t.created],
    ['WebSocket open', (t) => t.socketOpen],
    [
      `first sync's content received (${formatBytes(median(runs.map((t) => t.syncedBytes)))})`,
      (t) => t.synced,
    ],
    ['live editor: heading in the DOM', (t) => t.inDom],
    ['live editor: painted', (t) => t.painted],
  ];
  const rows = [['Inkwell milestone (median of runs, in the order reached)', 'at', 'step']];
  let previous = 0;
  const reached = phases
    .map(([name, of]) => [name, median(runs.map(of))] as const)
    .sort((a, b) => orderOf(a[1]) - orderOf(b[1]));
  for (const [name, at] of reached) {
    // Not before the live editor painted (the copy made in the tab is drawn first, and created
    // on the server after): the step's rows would say nothing.
    if (Number.isNaN(at)) continue;
    rows.push([name, formatMs(at), formatMs(at - previous)]);
    previous = at;
  }
  return rows;
}

/**
 * Import of the 1.2 MB document as the writer gets it, in the built app: from the file input's
 * change (picked through the menu, which starts the codec loading) or from the drop (dropped on
 * the editor at once, so the codec loads after it) to the document's end painted in the editor
 * on the live shared document (editable), against a bare Tiptap editor's `setContent(markdown)`
 * until painted. The milestones reached on the way are printed beside. Each run in a fresh
 * browser profile, so Inkwell's document starts empty.
 */
export async function uiImport(fixtures: Fixtures): Promise<BenchReport> {
  const { large } = fixtures;
  const pages = await buildPages();
  let app: RunningApp;
  try {
    app = await startApp();
  } catch (error) {
    if (error instanceof AppUnavailableError) return skippedReport(NAME, BASELINE, error.message);
    throw error;
  }
  const pagesServer = await serveStatic(pages.dir);
  const heading = endHeading(large.markdown);
  const inkwell: ShownTimings[] = [];
  const dropped: ShownTimings[] = [];
  const bare: number[] = [];
  try {
    console.log(`Inkwell served by ${app.servedBy}; watching for the heading "${heading}".`);
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so drift in the machine's speed affects both sides alike.
      bare.push(
        await withBrowser(async (context) => {
          const page = await openBare(context, pages, pagesServer.url);
          await page.evaluate(() => window.benchProbe.settle(500, 10_000));
          return loadBare(page, large.markdown);
        }),
      );
      inkwell.push(
        await withBrowser(async (context) => {
          const page = await openInkwell(context, app, pages.probePath);
          await page.evaluate(() => window.benchProbe.settle(500, 10_000));
          return importThroughUi(page, large.path, heading);
        }),
      );
      dropped.push(
        await withBrowser(async (context) => {
          const page = await openInkwell(context, app, pages.probePath);
          await page.evaluate(() => window.benchProbe.settle(500, 10_000));
          return importByDrop(page, large.path, heading);
        }),
      );
      const [shown, drop, painted] = [inkwell.at(-1), dropped.at(-1), bare.at(-1)];
      console.log(
        `  run ${run + 1}: Inkwell live ${formatMs(shown?.painted ?? NaN)}, ` +
          `dropped ${formatMs(drop?.painted ?? NaN)}, bare ${formatMs(painted ?? NaN)}`,
      );
    }
  } catch (error) {
    if (error instanceof AppUnavailableError) return skippedReport(NAME, BASELINE, error.message);
    throw error;
  } finally {
    await pagesServer.close();
    await app.stop();
  }
  console.log(table(phaseRows(inkwell), 2));
  console.log();
  console.log('Dropped on the editor, the codec not loaded yet:');
  console.log(table(phaseRows(dropped), 2));
  console.log();
  const figures: Figure[] = [
    {
      label: `import ${large.name} until painted and editable (live), median of ${RUNS}`,
      value: median(inkwell.map((t) => t.painted)),
      baseline: median(bare),
      unit: 'ms',
      target: TARGET,
    },
    {
      label: `the same, the file dropped on the editor (codec not loaded), median of ${RUNS}`,
      value: median(dropped.map((t) => t.painted)),
      baseline: median(bare),
      unit: 'ms',
      target: TARGET,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
